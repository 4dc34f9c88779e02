-- Delayed queue transfer: moves the elements that are due to the destination queue (Redisson's
-- QueueTransferTask push script, run by every client, Java or C++, that has the delayed queue).
-- KEYS[1]: the destination list n
-- KEYS[2]: the timeouts zset redisson_delay_queue_timeout:{n}
-- KEYS[3]: the list redisson_delay_queue:{n}
-- ARGV[1]: now, epoch ms
-- ARGV[2]: the most elements moved by one run (100, as Redisson)
-- Returns: the due time (epoch ms, as text) of the next element still waiting, or nil when none
--          is: when the caller should run this again.
local due = redis.call('zrangebyscore', KEYS[2], 0, ARGV[1], 'limit', 0, ARGV[2])
if #due > 0 then
  for _, element in ipairs(due) do
    local _, value = struct.unpack('Bc0Lc0', element)
    redis.call('rpush', KEYS[1], value)
    redis.call('lrem', KEYS[3], 1, element)
  end
  redis.call('zrem', KEYS[2], unpack(due))
end
local next_due = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
if next_due[1] ~= nil then
  return next_due[2]
end
return nil
