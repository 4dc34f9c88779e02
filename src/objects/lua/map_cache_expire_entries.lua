-- MapCache: set the time to live and max idle time of existing entries (Redisson's RMapCache
-- expireEntry, expireEntries, expireEntryIfNotSet, expireEntriesIfNotSet).
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: time to live, ms (0: none: the entry leaves the timeout set)
-- ARGV[3]: max idle time, ms (0: none: the entry leaves the idle set)
-- ARGV[4]: 'always' (every live entry) or 'if_not_set' (only entries with no expiry yet)
-- ARGV[5...]: the keys' bytes
-- Returns: how many entries got the new expiry. Absent and expired entries are left as they are,
--          as in Redisson; the value is repacked with the new max idle, as Redisson's scripts do.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local max_idle = tonumber(ARGV[3])
local only_unset = ARGV[4] == 'if_not_set'
local changed = 0
for i = 5, #ARGV do
  local field = ARGV[i]
  local entry = map_cache_entry(field)
  local eligible = entry ~= nil
  if eligible then
    if only_unset then
      eligible = entry.expires_at == 92233720368547758
    else
      eligible = entry.expires_at > now
    end
  end
  if eligible then
    if ttl > 0 then
      redis.call('zadd', KEYS[2], now + ttl, field)
    else
      redis.call('zrem', KEYS[2], field)
    end
    if max_idle > 0 then
      redis.call('zadd', KEYS[3], now + max_idle, field)
    else
      redis.call('zrem', KEYS[3], field)
    end
    map_cache_touch(field, now)
    redis.call('hset', KEYS[1], field,
               struct.pack('dLc0', max_idle, string.len(entry.value), entry.value))
    changed = changed + 1
  end
end
return changed
