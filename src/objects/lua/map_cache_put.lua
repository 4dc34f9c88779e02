-- MapCache put: stores an entry with its time to live and max idle time (Redisson's
-- RMapCache.put/fastPut/putIfAbsent with ttl and maxIdleTime). An expired entry counts as absent.
-- KEYS[1]: the hash n (field: key bytes; value: struct 'dLc0' of max-idle ms, value bytes)
-- KEYS[2]: redisson__timeout__set:{n} (score: the time the entry expires at, ms)
-- KEYS[3]: redisson__idle__set:{n} (score: last access + max idle, ms)
-- KEYS[4]: redisson__map_cache__last_access__set:{n} (kept only when a max size is set)
-- KEYS[5]: {n}:redisson_options (max-size, mode, has-listeners)
-- ARGV[1]: now, ms since the epoch (the client's clock, as Redisson)
-- ARGV[2]: the time the entry expires at, ms; 0: no time to live
-- ARGV[3]: now + max idle, ms; 0: no max idle
-- ARGV[4]: max idle, ms (0: none)
-- ARGV[5]: the key's bytes
-- ARGV[6]: the value's bytes
-- ARGV[7]: 'put' (answer the previous value), 'fast' (answer 1 if the key was absent) or
--          'if_absent' (store only if absent; answer the present value)
-- ARGV[8]: the created channel, redisson_map_cache_created:{n}
-- ARGV[9]: the updated channel, redisson_map_cache_updated:{n}
-- ARGV[10]: the removed channel, redisson_map_cache_removed:{n} (entries evicted by max-size)
-- Returns: 'put': the previous live value's bytes or nil; 'fast': 1 if the key was absent (or
--          expired), else 0; 'if_absent': nil if stored, else the present value's bytes.
--          A key of another type fails with WRONGTYPE (from HGET) and is left untouched.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local field = ARGV[5]
local previous = map_cache_live_entry(field, now)
if previous ~= nil and ARGV[7] == 'if_absent' then
  return previous.value
end

if tonumber(ARGV[2]) > 0 then
  redis.call('zadd', KEYS[2], ARGV[2], field)
else
  redis.call('zrem', KEYS[2], field)
end
if tonumber(ARGV[3]) > 0 then
  redis.call('zadd', KEYS[3], ARGV[3], field)
else
  redis.call('zrem', KEYS[3], field)
end
-- As Redisson: an LRU score first (so the new entry is the most recent), then eviction, then an
-- LFU count.
local mode = redis.call('hget', KEYS[5], 'mode')
if mode == false or mode == 'LRU' then
  map_cache_touch(field, now)
end
map_cache_evict(field, ARGV[10])
if mode == 'LFU' then
  map_cache_touch(field, now)
end
redis.call('hset', KEYS[1], field, struct.pack('dLc0', tonumber(ARGV[4]), string.len(ARGV[6]), ARGV[6]))

if previous == nil then
  map_cache_publish(ARGV[8], field, ARGV[6])
else
  map_cache_publish(ARGV[9], field, ARGV[6], previous.value)
end
if ARGV[7] == 'fast' then
  return previous == nil and 1 or 0
end
if previous == nil then
  return nil
end
return previous.value
