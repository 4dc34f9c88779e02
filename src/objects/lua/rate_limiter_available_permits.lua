-- The permits a rate limiter has now (Redisson 3.52's RRateLimiter.availablePermits script):
-- entries older than the interval give their permits back first.
-- KEYS[1]: the config hash n
-- KEYS[2]: {n}:value (overall)
-- KEYS[3]: {n}:value:<client id> (per client)
-- KEYS[4]: {n}:permits (overall)
-- KEYS[5]: {n}:permits:<client id> (per client)
-- ARGV[1]: now, the client's clock in epoch ms
-- Returns: the permits available. A limiter never used yet gets its value key set to the rate,
--          as Redisson does. Error "RateLimiter is not initialized" when there is no rate.
-- @include rate_limiter_state
local rate, interval, value_key, permits_key = rate_limiter_state()
if rate == nil then
  return redis.error_reply('ERR RateLimiter is not initialized')
end
local value = redis.call('get', value_key)
if value == false then
  redis.call('set', value_key, rate)
  return tonumber(rate)
end
local window_start = tonumber(ARGV[1]) - tonumber(interval)
local released = 0
for _, entry in ipairs(redis.call('zrangebyscore', permits_key, 0, window_start)) do
  local _, permits = struct.unpack('Bc0I', entry)
  released = released + permits
end
value = tonumber(value)
if released > 0 then
  redis.call('zremrangebyscore', permits_key, 0, window_start)
  value = value + released
  redis.call('set', value_key, value)
end
return value
