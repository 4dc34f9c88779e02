-- Gives permits back to the limiter's current window (Redisson's RRateLimiter.release): the
-- available value grows by them, never above the rate. The acquisitions recorded in the permits
-- set stay as they are, as in Redisson.
-- KEYS[1]: the config hash n (rate, interval ms, type 0 overall / 1 per client, keepAliveTime)
-- KEYS[2]: {n}:value (overall)
-- KEYS[3]: {n}:value:<client id> (per client)
-- KEYS[4]: {n}:permits (overall)
-- KEYS[5]: {n}:permits:<client id> (per client)
-- ARGV[1]: the permits to give back (> 0)
-- Returns: the available value after it. Errors: "RateLimiter is not initialized" (no rate).
--          Times to live as the acquire script sets them: keepAliveTime on all three, else the
--          config hash's TTL copied to the other two.
-- @include rate_limiter_state
-- @include rate_limiter_keep_alive
local rate, _, value_key, permits_key = rate_limiter_state()
if rate == nil then
  return redis.error_reply('ERR RateLimiter is not initialized')
end
local value = redis.call('get', value_key)
value = value == false and tonumber(rate) or tonumber(value)
value = math.min(value + tonumber(ARGV[1]), tonumber(rate))
redis.call('set', value_key, value)
rate_limiter_keep_alive(value_key, permits_key)
return value
