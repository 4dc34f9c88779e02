-- TimeSeries eviction step: removes expired entries from both zsets (Redisson's
-- TimeSeriesEvictionTask), at most a given number per run.
-- KEYS[1]: the zset n
-- KEYS[2]: the zset redisson__ts_ttl:{n} (score: expiry time, ms)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the most entries to remove (>= 1)
-- Returns: the number of entries removed.
local expired = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[1], 'limit', 0, ARGV[2])
-- ZREM in chunks: unpack() of a long list would overflow Lua's stack.
for first = 1, #expired, 1000 do
  local last = math.min(first + 999, #expired)
  redis.call('zrem', KEYS[2], unpack(expired, first, last))
  redis.call('zrem', KEYS[1], unpack(expired, first, last))
end
return #expired
