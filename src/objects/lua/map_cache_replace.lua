-- MapCache put_if_exists / fast_put_if_exists / replace(key, expected, update) /
-- remove(key, expected): changes a live entry only (Redisson's RMapCache.putIfExists, replace,
-- remove with a value). A replaced value keeps the entry's time to live and max idle time; a
-- read of an entry with a max idle time moves its idle deadline. An expired entry counts as
-- absent.
-- KEYS[1]: the hash n (field: key bytes; value: struct 'dLc0' of max-idle ms, value bytes)
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- ARGV[3]: 'put_if_exists', 'fast_put_if_exists' or 'if_equal'
-- ARGV[4]: the new value's bytes; for 'if_equal', the expected value's bytes
-- ARGV[5]: for 'if_equal': '1' to store ARGV[6], '0' to remove the entry
-- ARGV[6]: for 'if_equal' with '1': the new value's bytes
-- ARGV[7]: the updated channel, redisson_map_cache_updated:{n}
-- ARGV[8]: the removed channel, redisson_map_cache_removed:{n}
-- Returns: 'put_if_exists': the value replaced, or nil (nothing stored); the others: 1 if the
--          entry was changed, else 0. A key of another type fails with WRONGTYPE.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local field = ARGV[2]
local mode = ARGV[3]
local entry = map_cache_live_entry(field, now)
if entry == nil or (mode == 'if_equal' and entry.value ~= ARGV[4]) then
  if mode == 'put_if_exists' then
    return nil
  end
  return 0
end
if mode == 'if_equal' and ARGV[5] == '0' then
  redis.call('hdel', KEYS[1], field)
  redis.call('zrem', KEYS[2], field)
  redis.call('zrem', KEYS[3], field)
  redis.call('zrem', KEYS[4], field)
  map_cache_publish(ARGV[8], field, entry.value)
  return 1
end
local value = ARGV[4]
if mode == 'if_equal' then
  value = ARGV[6]
end
redis.call('hset', KEYS[1], field, struct.pack('dLc0', entry.max_idle, string.len(value), value))
map_cache_read(field, entry, now)
map_cache_publish(ARGV[7], field, value, entry.value)
if mode == 'put_if_exists' then
  return entry.value
end
return 1
