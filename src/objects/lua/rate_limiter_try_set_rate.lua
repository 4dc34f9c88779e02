-- Sets a rate limiter's config unless it has one (Redisson's RRateLimiter.trySetRate): each
-- field only if absent.
-- KEYS[1]: the config hash n
-- ARGV[1]: rate (permits per interval)
-- ARGV[2]: interval in ms
-- ARGV[3]: type (0 overall, 1 per client)
-- ARGV[4]: keepAliveTime in ms (0: none)
-- Returns: 1 if the type was newly set (the hash then expires after keepAliveTime, if any),
--          else 0.
redis.call('hsetnx', KEYS[1], 'rate', ARGV[1])
redis.call('hsetnx', KEYS[1], 'interval', ARGV[2])
redis.call('hsetnx', KEYS[1], 'keepAliveTime', ARGV[4])
local set = redis.call('hsetnx', KEYS[1], 'type', ARGV[3])
if set == 1 and tonumber(ARGV[4]) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[4])
end
return set
