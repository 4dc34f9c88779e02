-- LocalCachedMap's delete_object (Redisson's deleteAsync): deletes the hash and its updates log
-- and, when something was deleted, tells the other instances' caches to clear.
-- KEYS[1]: the map's hash
-- KEYS[2]: its topic {<name>}:topic
-- KEYS[3]: its updates log redisson__cache_updates_log:{<name>}
-- ARGV[1]: the clear message (type 00, release flag 0)
-- ARGV[2]: '0' publish nothing, else publish
-- ARGV[3]: the publish command (PUBLISH or SPUBLISH)
-- Returns: 1 if something was deleted, else 0.
if redis.call('del', KEYS[1], KEYS[3]) > 0 then
  if ARGV[2] ~= '0' then
    redis.call(ARGV[3], KEYS[2], ARGV[1])
  end
  return 1
end
return 0
