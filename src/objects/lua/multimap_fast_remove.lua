-- Multimap fast_remove(keys...): removes keys with all their values, without reading them
-- (Redisson's RMultimap.fastRemove).
-- KEYS: the index hash n, then the values key {n}:<base64> of each key
-- ARGV: the keys' bytes, in the order of their values keys
-- Returns: how many of the keys were in the index. A key of another type fails with WRONGTYPE
--          and nothing is written.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local removed = redis.call('hdel', KEYS[1], unpack(ARGV))
redis.call('del', unpack(KEYS, 2, #KEYS))
return removed
