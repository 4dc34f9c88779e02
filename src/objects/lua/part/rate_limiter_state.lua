-- The limiter's rate and interval (config hash KEYS[1]) and the keys its state lives in: the
-- overall value and permits keys (KEYS[2], KEYS[4]), or this client's (KEYS[3], KEYS[5]) when
-- its type is 1 (per client). Nothing (nil) when the limiter has no rate yet.
local function rate_limiter_state()
  local rate = redis.call('hget', KEYS[1], 'rate')
  local interval = redis.call('hget', KEYS[1], 'interval')
  local mode = redis.call('hget', KEYS[1], 'type')
  if rate == false or interval == false or mode == false then
    return nil
  end
  if mode == '1' then
    return rate, interval, KEYS[3], KEYS[5]
  end
  return rate, interval, KEYS[2], KEYS[4]
end
