-- Delayed queue remove-matching: takes back every waiting element whose value is (ARGV[1] =
-- 'remove') or is not ('retain') one of the given values (Redisson's RDelayedQueue.removeAll and
-- retainAll), dropping their due times too. Redisson's retainAll leaves the due times of what it
-- drops in the zset, so its transfer would still deliver them; this removes both.
-- KEYS[1]: the timeouts zset redisson_delay_queue_timeout:{n}
-- KEYS[2]: the list redisson_delay_queue:{n}
-- ARGV[1]: 'remove' or 'retain'
-- ARGV[2..]: the values' bytes ('retain' with none: both keys are deleted, as Redisson)
-- Returns: how many elements were removed.
local retain = ARGV[1] == 'retain'
local listed = {}
for i = 2, #ARGV do listed[ARGV[i]] = true end
local length = redis.call('llen', KEYS[2])
if retain and #ARGV == 1 then
  redis.call('del', KEYS[1], KEYS[2])
  return length
end
-- A dropped element is overwritten with '' (never a framed element: those are 17+ bytes) and
-- all of them go in one LREM: the list keeps its order and its TTL, in O(elements).
local removed = 0
for first = 0, length - 1, 100 do
  for offset, element in ipairs(redis.call('lrange', KEYS[2], first, first + 99)) do
    local _, value = struct.unpack('Bc0Lc0', element)
    if (listed[value] ~= nil) ~= retain then
      redis.call('zrem', KEYS[1], element)
      redis.call('lset', KEYS[2], first + offset - 1, '')
      removed = removed + 1
    end
  end
end
if removed > 0 then redis.call('lrem', KEYS[2], 0, '') end
return removed
