-- MapCache add_and_get: adds a number to the value of a key, stored as decimal text (Redisson's
-- RMapCache.addAndGet); an absent or expired entry counts as 0 and becomes an entry that never
-- expires, a live one keeps its time to live and max idle time.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- ARGV[3]: the delta, decimal text
-- ARGV[4]: the created channel, redisson_map_cache_created:{n}
-- ARGV[5]: the updated channel, redisson_map_cache_updated:{n}
-- ARGV[6]: the removed channel, redisson_map_cache_removed:{n} (entries evicted by max-size)
-- Returns: the new value as decimal text (an integer without a fraction, else %.17g). A value
--          that is not a number fails ("ERR hash value is not a number") and changes nothing.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local field = ARGV[2]
local entry = map_cache_live_entry(field, now)
local sum = tonumber(ARGV[3])
local max_idle = 0
if entry ~= nil then
  local current = tonumber(entry.value)
  if current == nil then
    return redis.error_reply('ERR hash value is not a number')
  end
  sum = sum + current
  max_idle = entry.max_idle
end
local text
if sum == math.floor(sum) and math.abs(sum) < 2 ^ 53 then
  text = string.format('%d', sum)
else
  text = string.format('%.17g', sum)
end
if entry == nil then
  redis.call('zrem', KEYS[2], field)
  redis.call('zrem', KEYS[3], field)
  map_cache_evict(field, ARGV[6])
  map_cache_touch(field, now)
else
  map_cache_read(field, entry, now)
end
redis.call('hset', KEYS[1], field, struct.pack('dLc0', max_idle, string.len(text), text))
if entry == nil then
  map_cache_publish(ARGV[4], field, text)
else
  map_cache_publish(ARGV[5], field, text, entry.value)
end
return text
