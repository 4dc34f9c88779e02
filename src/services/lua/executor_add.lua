-- A task queued for an executor's workers now (Redisson's TasksService add): its bytes under its
-- id in the tasks hash, the id at the tail of the request list (a worker's BLPOP takes it), the
-- task counted, and, when tasks are retried, a retry entry `ff:<id>` in the scheduler zset that
-- queues it again at that time unless a worker finishes it first or keeps moving it on.
-- KEYS[1]: the task counter {<name>:org.redisson.executor.RemoteExecutorService}:counter
-- KEYS[2]: the status key (exists once the executor is shut down) ...:status
-- KEYS[3]: the scheduler zset ...:scheduler
-- KEYS[4]: the scheduler channel ...:scheduler-channel
-- KEYS[5]: the tasks hash ...:tasks
-- KEYS[6]: the request list {<name>:org.redisson.executor.RemoteExecutorService}
-- KEYS[7]: the retry interval key ...:retry-interval
-- KEYS[8]: the expiration zset ...:expiration
-- KEYS[9]: the task's latch ...:task-latch:<id>
-- ARGV[1]: when the retry entry is due (epoch ms); 0: tasks are not retried
-- ARGV[2]: the task id (32 hex)
-- ARGV[3]: the task's bytes (a RemoteServiceRequest in the executor's codec)
-- ARGV[4]: the retry interval (ms)
-- ARGV[5]: when the task expires unstarted (epoch ms); 0: never
-- Returns: 1 when queued; 0 when the executor is shut down (nothing written); an id already
-- queued fails with an error (nothing written).
if redis.call('exists', KEYS[2]) == 1 then
  return 0
end
if redis.call('hexists', KEYS[5], ARGV[2]) == 1 then
  return redis.error_reply('ERR task id ' .. ARGV[2] .. ' exists already')
end
redis.call('hset', KEYS[5], ARGV[2], ARGV[3])
redis.call('del', KEYS[9])
redis.call('rpush', KEYS[6], ARGV[2])
redis.call('incr', KEYS[1])
if tonumber(ARGV[5]) > 0 then
  redis.call('zadd', KEYS[8], ARGV[5], ARGV[2])
end
if tonumber(ARGV[1]) > 0 then
  local retry_name = 'ff:' .. ARGV[2]
  redis.call('set', KEYS[7], ARGV[4])
  redis.call('zadd', KEYS[3], ARGV[1], retry_name)
  -- A new head of the schedule: every worker's timer hears its time.
  if redis.call('zrange', KEYS[3], 0, 0)[1] == retry_name then
    redis.call('publish', KEYS[4], ARGV[1])
  end
end
return 1
