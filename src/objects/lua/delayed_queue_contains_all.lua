-- Delayed queue contains-all: whether each given value waits in the queue (Redisson's
-- RDelayedQueue.contains and containsAll), compared as bytes after Redisson's framing.
-- KEYS[1]: the list redisson_delay_queue:{n}
-- ARGV[1..]: the values' bytes (at least one)
-- Returns: 1 if every value waits, else 0. O(elements), read in windows of 100 so the script's
--          memory stays small; stops as soon as every value was seen.
local missing = {}
local count = 0
for _, value in ipairs(ARGV) do
  if not missing[value] then
    missing[value] = true
    count = count + 1
  end
end
local length = redis.call('llen', KEYS[1])
for first = 0, length - 1, 100 do
  for _, element in ipairs(redis.call('lrange', KEYS[1], first, first + 99)) do
    local _, value = struct.unpack('Bc0Lc0', element)
    if missing[value] then
      missing[value] = nil
      count = count - 1
      if count == 0 then return 1 end
    end
  end
end
return 0
