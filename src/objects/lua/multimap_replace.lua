-- Multimap remove_all(key) / replace_values(key, values): takes every value of a key out, then
-- stores the new ones (Redisson's removeAll / replaceValues).
-- KEYS[1]: the index hash n
-- KEYS[2]: the key's values, the set or list {n}:<base64>
-- KEYS[3]: the multimap cache layout's expiry zset: a key that joins the index (anew, or again
--          after it left) drops an expiry left behind for it, so it does not come back expired
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the key's bytes
-- ARGV[3]: hash128toBase64 of them
-- ARGV[4..]: the new values' bytes, in order; none: the key is removed (its index field too)
-- Returns: the values the key had (a list's in order). A key of another type fails with
--          WRONGTYPE and nothing is written.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index() or multimap_check_expiry()
if failure then
  return failure
end
local previous = multimap_members(ARGV[1], KEYS[2])
redis.call('del', KEYS[2])
if #ARGV >= 4 then
  multimap_add(ARGV[1], KEYS[2], 4)
  if redis.call('hset', KEYS[1], ARGV[2], ARGV[3]) == 1 then
    redis.call('zrem', KEYS[3], ARGV[2])
  end
else
  redis.call('hdel', KEYS[1], ARGV[2])
end
return previous
