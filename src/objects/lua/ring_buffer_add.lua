-- Ring buffer add: appends elements and drops the oldest beyond the capacity (Redisson's
-- RRingBuffer.add/addAll).
-- KEYS[1]: the list n
-- KEYS[2]: the capacity, a decimal string redisson_rb:{n}
-- ARGV: the elements' bytes, in order
-- Returns: the list's length after it (at most the capacity), or nil when there is no capacity
--          (nothing changes). A key of another type fails with WRONGTYPE.
local limit = redis.call('get', KEYS[2])
if limit == false then
  return nil
end
local size = 0
for _, element in ipairs(ARGV) do
  size = redis.call('rpush', KEYS[1], element)
end
local excess = size - tonumber(limit)
if excess > 0 then
  redis.call('ltrim', KEYS[1], excess, -1)
  size = size - excess
end
return size
