-- MapCache sweep: removes expired entries from the hash and every zset, as Redisson's
-- MapCacheEvictionTask does, and publishes an expired event for each when a listener registered.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- KEYS[6]: redisson__execute_task_once_latch:{n} (Redisson's: one sweep per interval over all
--          clients, Java or C++)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: entries to remove at most, per zset
-- ARGV[3]: seconds to hold the latch; 0: ignore the latch (a sweep asked for by a caller)
-- ARGV[4]: the expired channel, redisson_map_cache_expired:{n}
-- Returns: the number of entries removed, or -1 when the latch was held (another client swept).
-- @include map_cache_entry
if tonumber(ARGV[3]) > 0 then
  if redis.call('setnx', KEYS[6], 1) == 0 then
    return -1
  end
  redis.call('expire', KEYS[6], ARGV[3])
end
local removed = 0
for _, zset in ipairs({KEYS[2], KEYS[3]}) do
  local expired = redis.call('zrangebyscore', zset, 0, ARGV[1], 'limit', 0, ARGV[2])
  if #expired > 0 then
    for _, field in ipairs(expired) do
      local packed = redis.call('hget', KEYS[1], field)
      if packed ~= false then
        local _, value = struct.unpack('dLc0', packed)
        map_cache_publish(ARGV[4], field, value)
      end
    end
    redis.call('zrem', KEYS[2], unpack(expired))
    redis.call('zrem', KEYS[3], unpack(expired))
    redis.call('zrem', KEYS[4], unpack(expired))
    removed = removed + redis.call('hdel', KEYS[1], unpack(expired))
  end
end
return removed
