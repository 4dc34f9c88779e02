-- Delayed queue remove: takes back an element not yet transferred (Redisson's
-- RDelayedQueue.remove), the first one whose value equals the given bytes.
-- KEYS[1]: the timeouts zset redisson_delay_queue_timeout:{n}
-- KEYS[2]: the list redisson_delay_queue:{n}
-- ARGV[1]: the value's bytes
-- Returns: 1 if an element was removed, 0 if none holds the value. O(elements), read in
--          windows of 100 so the script's memory stays small.
local length = redis.call('llen', KEYS[2])
for first = 0, length - 1, 100 do
  local elements = redis.call('lrange', KEYS[2], first, first + 99)
  for _, element in ipairs(elements) do
    local _, value = struct.unpack('Bc0Lc0', element)
    if value == ARGV[1] then
      redis.call('zrem', KEYS[1], element)
      redis.call('lrem', KEYS[2], 1, element)
      return 1
    end
  end
end
return 0
