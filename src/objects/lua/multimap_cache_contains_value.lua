-- Multimap cache contains_value: whether some key that has not expired holds the value
-- (Redisson's RSetMultimapCache/RListMultimapCache containsValue), reading the index in HSCAN
-- pages.
-- KEYS[1]: the index hash n
-- KEYS[2]: the expiry zset (member: key bytes; score: when it expires, ms since the epoch)
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the values keys' prefix, suffixName(n, '')
-- ARGV[3]: the value's bytes
-- ARGV[4]: now, ms since the epoch
-- Returns: 1 or 0. A key of another type fails with WRONGTYPE.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local now = tonumber(ARGV[4])
local found = hash_find(KEYS[1], 500, function(key, suffix)
  local expires = redis.call('zscore', KEYS[2], key)
  if expires ~= false and tonumber(expires) <= now then
    return false
  end
  local values = ARGV[2] .. suffix
  if ARGV[1] == 'set' then
    return redis.call('sismember', values, ARGV[3]) == 1
  end
  return redis.call('lpos', values, ARGV[3]) ~= false
end)
return found and 1 or 0
