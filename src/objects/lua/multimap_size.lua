-- Multimap size / contains_value: counts or looks for values across every key (Redisson's
-- RSetMultimap/RListMultimap size and containsValue), reading the index in HSCAN pages.
-- KEYS[1]: the index hash n
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the values keys' prefix, suffixName(n, '')
-- ARGV[3]: absent: count; present: the value's bytes to look for
-- Returns: the number of values (count), or 1 / 0 whether some key holds the value. A key of
--          another type fails with WRONGTYPE.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local total = 0
local found = 0
multimap_each_suffix(function(suffix)
  local key = ARGV[2] .. suffix
  if ARGV[3] == nil then
    total = total + multimap_count(ARGV[1], key)
  elseif found == 0 then
    if ARGV[1] == 'set' then
      found = redis.call('sismember', key, ARGV[3])
    elseif redis.call('lpos', key, ARGV[3]) ~= false then
      found = 1
    end
  end
end)
if ARGV[3] == nil then
  return total
end
return found
