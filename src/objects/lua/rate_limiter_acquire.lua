-- Takes permits from a rate limiter if the window has them (Redisson 3.52's
-- RRateLimiter.tryAcquire script: the same state changes and the same reply, so Java and C++
-- clients share one budget).
-- KEYS[1]: the config hash n (rate, interval ms, type 0 overall / 1 per client, keepAliveTime)
-- KEYS[2]: {n}:value, the permits left (overall)
-- KEYS[3]: {n}:value:<client id> (per client)
-- KEYS[4]: {n}:permits, a sorted set of acquisitions scored by epoch ms (overall)
-- KEYS[5]: {n}:permits:<client id> (per client)
-- ARGV[1]: permits wanted
-- ARGV[2]: now, the client's clock in epoch ms
-- ARGV[3]: 16 random bytes, the tag of this acquisition's entry
-- Returns: nil when the permits were taken (entry struct.pack('Bc0I', 16, tag, permits) scored
--          now); else the ms to wait before trying again: 3 + interval - (now - oldest entry).
--          Errors: "RateLimiter is not initialized" (no rate), "Requested permits amount cannot
--          exceed defined rate". Either way the keys' TTLs are refreshed as Redisson does:
--          keepAliveTime on all three, else the config hash's TTL copied to the other two.
-- @include rate_limiter_state
-- @include rate_limiter_keep_alive
local rate, interval, value_key, permits_key = rate_limiter_state()
if rate == nil then
  return redis.error_reply('ERR RateLimiter is not initialized')
end
local wanted = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
if tonumber(rate) < wanted then
  return redis.error_reply('ERR Requested permits amount cannot exceed defined rate')
end

local function permits_of(entries)
  local sum = 0
  for _, entry in ipairs(entries) do
    local _, permits = struct.unpack('Bc0I', entry)
    sum = sum + permits
  end
  return sum
end

local function take()
  redis.call('zadd', permits_key, now, struct.pack('Bc0I', string.len(ARGV[3]), ARGV[3], wanted))
  redis.call('decrby', value_key, wanted)
end

local result = nil
local value = redis.call('get', value_key)
if value == false then
  redis.call('set', value_key, rate)
  take()
else
  local window_start = now - tonumber(interval)
  local released = permits_of(redis.call('zrangebyscore', permits_key, 0, window_start))
  if released > 0 then
    redis.call('zremrangebyscore', permits_key, 0, window_start)
    if tonumber(value) + released > tonumber(rate) then
      value = tonumber(rate) - permits_of(redis.call('zrange', permits_key, 0, -1))
    else
      value = tonumber(value) + released
    end
    redis.call('set', value_key, value)
  end
  if tonumber(value) < wanted then
    local oldest = redis.call('zrange', permits_key, 0, 0, 'withscores')
    if oldest[2] == nil then
      return redis.error_reply('ERR RateLimiter ' .. value_key ..
                               ' is short of permits with no acquisition in ' .. permits_key)
    end
    result = 3 + tonumber(interval) - (now - tonumber(oldest[2]))
  else
    take()
  end
end

rate_limiter_keep_alive(value_key, permits_key)
return result
