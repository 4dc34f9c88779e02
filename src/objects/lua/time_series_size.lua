-- TimeSeries size: the entries that have not expired (Redisson's RTimeSeries.size: the zset's
-- cardinality less the members of the ttl zset whose expiry has passed).
-- KEYS[1]: the zset n
-- KEYS[2]: the zset redisson__ts_ttl:{n} (score: expiry time, ms)
-- ARGV[1]: now, ms since the epoch
-- Returns: the number of live entries.
return redis.call('zcard', KEYS[1]) - redis.call('zcount', KEYS[2], '-inf', ARGV[1])
