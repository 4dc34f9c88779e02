-- A worker running a task moves its retry entry a retry interval ahead (Redisson's
-- renewRetryTime), so that a task still running is not queued again; a worker that died stops
-- renewing, and the entry then queues the task for another worker.
-- KEYS[1]: the status key {<name>:org.redisson.executor.RemoteExecutorService}:status
-- KEYS[2]: the scheduler zset ...:scheduler
-- KEYS[3]: the scheduler channel ...:scheduler-channel
-- KEYS[4]: the retry interval key ...:retry-interval
-- KEYS[5]: the tasks hash ...:tasks
-- ARGV[1]: now (epoch ms)
-- ARGV[2]: the task id
-- Returns: the retry interval (ms) when the entry was moved; nil when there is nothing to renew
-- (no retries, the task gone, or the executor shut down).
local retry_interval = redis.call('get', KEYS[4])
if redis.call('exists', KEYS[1]) == 0 and retry_interval ~= false
    and redis.call('hexists', KEYS[5], ARGV[2]) == 1 then
  local due = tonumber(ARGV[1]) + tonumber(retry_interval)
  local retry_name = 'ff:' .. ARGV[2]
  redis.call('zadd', KEYS[2], due, retry_name)
  if redis.call('zrange', KEYS[2], 0, 0)[1] == retry_name then
    redis.call('publish', KEYS[3], due)
  end
  return tonumber(retry_interval)
end
return nil
