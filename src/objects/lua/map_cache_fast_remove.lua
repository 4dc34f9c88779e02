-- MapCache fast_remove: deletes entries from the hash and every zset, without answering their
-- values (Redisson's RMapCache.fastRemove).
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the removed channel, redisson_map_cache_removed:{n}
-- ARGV[3..]: the keys' bytes
-- Returns: how many of the keys had a live entry (expired ones are deleted all the same, but
--          not counted: they were already absent). A key of another type fails with WRONGTYPE.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local removed = 0
for i = 3, #ARGV do
  local field = ARGV[i]
  local entry = map_cache_entry(field)
  redis.call('zrem', KEYS[2], field)
  redis.call('zrem', KEYS[3], field)
  redis.call('zrem', KEYS[4], field)
  if entry ~= nil then
    redis.call('hdel', KEYS[1], field)
    if entry.expires_at > now then
      removed = removed + 1
      map_cache_publish(ARGV[2], field, entry.value)
    end
  end
end
return removed
