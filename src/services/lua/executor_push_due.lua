-- The workers' timer (Redisson's executor QueueTransferTask): moves the scheduled tasks that are
-- due to the request list. A retry entry `ff:<id>` that is due means its worker stopped
-- renewing: the task is queued again (once: an id already in the list is not added twice).
-- When tasks are retried, each task moved gets a retry entry a retry interval ahead.
-- KEYS[1]: the request list {<name>:org.redisson.executor.RemoteExecutorService}
-- KEYS[2]: the scheduler zset ...:scheduler
-- KEYS[3]: the scheduler channel ...:scheduler-channel
-- KEYS[4]: the retry interval key ...:retry-interval
-- ARGV[1]: now (epoch ms)
-- ARGV[2]: at most this many entries are moved
-- Returns: the start time (epoch ms, a string) of the schedule's new head; nil when it is empty.
local due = redis.call('zrangebyscore', KEYS[2], 0, ARGV[1], 'limit', 0, ARGV[2])
local retry_interval = redis.call('get', KEYS[4])
if #due > 0 then
  redis.call('zrem', KEYS[2], unpack(due))
  if retry_interval ~= false then
    local next_retry = tonumber(ARGV[1]) + tonumber(retry_interval)
    for _, entry in ipairs(due) do
      local id = entry
      local retry_name = entry
      if string.sub(entry, 1, 3) == 'ff:' then
        id = string.sub(entry, 4)
      else
        retry_name = 'ff:' .. entry
      end
      redis.call('zadd', KEYS[2], next_retry, retry_name)
      if redis.call('zrange', KEYS[2], 0, 0)[1] == retry_name then
        redis.call('publish', KEYS[3], next_retry)
      end
      -- Queued once: LINSERT finds an id already waiting (then the copy is taken out again).
      if redis.call('linsert', KEYS[1], 'before', id, id) < 1 then
        redis.call('rpush', KEYS[1], id)
      else
        redis.call('lrem', KEYS[1], -1, id)
      end
    end
  else
    redis.call('rpush', KEYS[1], unpack(due))
  end
end
local head = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
if head[1] ~= nil then
  return head[2]
end
return nil
