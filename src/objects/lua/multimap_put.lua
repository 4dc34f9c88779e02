-- Multimap put / put_all: adds values under a key (Redisson's RSetMultimap/RListMultimap
-- put/putAll: HSET of the index field, then SADD or RPUSH).
-- KEYS[1]: the index hash n
-- KEYS[2]: the key's values, the set or list {n}:<base64>
-- KEYS[3]: the multimap cache layout's expiry zset: a key that joins the index (anew, or again
--          after it left) drops an expiry left behind for it, so it does not come back expired
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the key's bytes (map-key codec)
-- ARGV[3]: hash128toBase64 of them
-- ARGV[4..]: the values' bytes (map-value codec), in order
-- Returns: how many values were added (a set skips those it holds); 0 and nothing written for no
--          values. A key of another type fails with WRONGTYPE and nothing is written.
-- @include hash_scan
-- @include multimap_index
if #ARGV < 4 then
  return 0
end
local failure = multimap_check_index() or multimap_check_expiry()
if failure then
  return failure
end
local added = multimap_add(ARGV[1], KEYS[2], 4)
if redis.call('hset', KEYS[1], ARGV[2], ARGV[3]) == 1 then
  redis.call('zrem', KEYS[3], ARGV[2])
end
return added
