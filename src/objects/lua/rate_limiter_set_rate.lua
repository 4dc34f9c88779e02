-- Sets a rate limiter's config, replacing any (Redisson's RRateLimiter.setRate): the state of
-- the new type (its value and permits keys) starts afresh.
-- KEYS[1]: the config hash n
-- KEYS[2]: {n}:value (overall)
-- KEYS[3]: {n}:value:<client id> (per client)
-- KEYS[4]: {n}:permits (overall)
-- KEYS[5]: {n}:permits:<client id> (per client)
-- ARGV[1]: rate (permits per interval)
-- ARGV[2]: interval in ms
-- ARGV[3]: type (0 overall, 1 per client)
-- ARGV[4]: keepAliveTime in ms (0: none)
-- Returns: nil.
local value_key = KEYS[2]
local permits_key = KEYS[4]
if ARGV[3] == '1' then
  value_key = KEYS[3]
  permits_key = KEYS[5]
end
redis.call('hset', KEYS[1], 'rate', ARGV[1], 'interval', ARGV[2], 'type', ARGV[3],
           'keepAliveTime', ARGV[4])
if tonumber(ARGV[4]) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[4])
end
redis.call('del', value_key, permits_key)
return nil
