-- Multimap remove(key, value): removes one value of a key; the key leaves the index with its
-- last value (Redisson's RSetMultimap/RListMultimap remove).
-- KEYS[1]: the index hash n
-- KEYS[2]: the key's values, the set or list {n}:<base64>
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the key's bytes
-- ARGV[3]: the value's bytes (a list loses its first equal element)
-- Returns: 1 if the value was there, else 0. A key of another type fails with WRONGTYPE and
--          nothing is written.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local removed
if ARGV[1] == 'set' then
  removed = redis.call('srem', KEYS[2], ARGV[3])
else
  removed = redis.call('lrem', KEYS[2], 1, ARGV[3])
end
if removed == 1 and multimap_count(ARGV[1], KEYS[2]) == 0 then
  redis.call('hdel', KEYS[1], ARGV[2])
end
return removed
