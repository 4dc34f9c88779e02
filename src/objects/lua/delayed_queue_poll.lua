-- Delayed queue poll: takes waiting elements from the head before they are due (Redisson's
-- RDelayedQueue.poll and poll(limit)), dropping their due times.
-- KEYS[1]: the timeouts zset redisson_delay_queue_timeout:{n}
-- KEYS[2]: the list redisson_delay_queue:{n}
-- ARGV[1]: how many to take at most (>= 1)
-- Returns: the values taken (Redisson's framing removed), head first; empty when none waits.
local values = {}
for _ = 1, tonumber(ARGV[1]) do
  local element = redis.call('lpop', KEYS[2])
  if not element then break end
  redis.call('zrem', KEYS[1], element)
  local _, value = struct.unpack('Bc0Lc0', element)
  table.insert(values, value)
end
return values
