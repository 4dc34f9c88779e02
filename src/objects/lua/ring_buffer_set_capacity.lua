-- Ring buffer set capacity: sets the capacity and drops the oldest elements beyond it
-- (Redisson's RRingBuffer.setCapacity).
-- KEYS[1]: the list n
-- KEYS[2]: the capacity, a decimal string redisson_rb:{n}
-- ARGV[1]: the new capacity (> 0)
-- Returns: the number of elements dropped.
redis.call('set', KEYS[2], ARGV[1])
local size = redis.call('llen', KEYS[1])
local excess = size - tonumber(ARGV[1])
if excess > 0 then
  redis.call('ltrim', KEYS[1], excess, -1)
  return excess
end
return 0
