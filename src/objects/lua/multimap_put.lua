-- Multimap put / put_all: adds values under a key (Redisson's RSetMultimap/RListMultimap
-- put/putAll: HSET of the index field, then SADD or RPUSH).
-- KEYS[1]: the index hash n
-- KEYS[2]: the key's values, the set or list {n}:<base64>
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
local failure = multimap_check_index()
if failure then
  return failure
end
local added = multimap_add(ARGV[1], KEYS[2], 4)
redis.call('hset', KEYS[1], ARGV[2], ARGV[3])
return added
