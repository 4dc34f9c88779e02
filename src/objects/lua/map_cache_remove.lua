-- MapCache remove: deletes an entry from the hash and every zset (Redisson's RMapCache.remove).
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- ARGV[3]: the removed channel, redisson_map_cache_removed:{n}
-- Returns: the removed value's bytes, or nil when the key was absent or had expired (an
--          expired entry is deleted all the same).
-- @include map_cache_entry
local field = ARGV[2]
local entry = map_cache_entry(field)
redis.call('zrem', KEYS[2], field)
redis.call('zrem', KEYS[3], field)
redis.call('zrem', KEYS[4], field)
if entry == nil then
  return nil
end
redis.call('hdel', KEYS[1], field)
if entry.expires_at <= tonumber(ARGV[1]) then
  return nil
end
map_cache_publish(ARGV[3], field, entry.value)
return entry.value
