-- Multimap fast-remove-value: removes the given values from every key (Redisson's
-- RSetMultimap/RListMultimap fastRemoveValue): a set loses each value, a list its first
-- occurrence of each value, as Redisson. A key left without values leaves the index too (for a
-- list Redisson keeps it there, empty; this keeps the layout's rule that an indexed key has
-- values).
-- KEYS[1]: the index hash n
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the values keys' prefix, suffixName(n, '')
-- ARGV[3..]: the values' bytes (at least one)
-- Returns: how many values were removed. A key of another type (the index or a values key)
--          fails with WRONGTYPE before anything is written.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
-- First the keys and their types, so a values key of another type fails before any write.
local keys, suffixes = {}, {}
hash_find(KEYS[1], 500, function(key, suffix)
  local kind = redis.call('type', ARGV[2] .. suffix)['ok']
  if kind ~= ARGV[1] and kind ~= 'none' then
    failure = redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
    return true
  end
  table.insert(keys, key)
  table.insert(suffixes, suffix)
  return false
end)
if failure then
  return failure
end
local removed = 0
local emptied = {}
for k, suffix in ipairs(suffixes) do
  local values = ARGV[2] .. suffix
  for i = 3, #ARGV do
    if ARGV[1] == 'set' then
      removed = removed + redis.call('srem', values, ARGV[i])
    else
      removed = removed + redis.call('lrem', values, 1, ARGV[i])
    end
  end
  if redis.call('exists', values) == 0 then
    table.insert(emptied, keys[k])
  end
end
for first = 1, #emptied, 1000 do
  redis.call('hdel', KEYS[1], unpack(emptied, first, math.min(first + 999, #emptied)))
end
return removed
