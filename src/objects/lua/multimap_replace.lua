-- Multimap remove_all(key) / replace_values(key, values): takes every value of a key out, then
-- stores the new ones (Redisson's removeAll / replaceValues).
-- KEYS[1]: the index hash n
-- KEYS[2]: the key's values, the set or list {n}:<base64>
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the key's bytes
-- ARGV[3]: hash128toBase64 of them
-- ARGV[4..]: the new values' bytes, in order; none: the key is removed (its index field too)
-- Returns: the values the key had (a list's in order). A key of another type fails with
--          WRONGTYPE and nothing is written.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local previous = multimap_members(ARGV[1], KEYS[2])
redis.call('del', KEYS[2])
if #ARGV >= 4 then
  multimap_add(ARGV[1], KEYS[2], 4)
  redis.call('hset', KEYS[1], ARGV[2], ARGV[3])
else
  redis.call('hdel', KEYS[1], ARGV[2])
end
return previous
