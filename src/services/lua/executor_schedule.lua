-- A task scheduled for later (Redisson's ScheduledTasksService add): its bytes under its id in
-- the tasks hash, the id in the scheduler zset at its start time (the workers' timers move it to
-- the request list then), the task counted, and its retry entry `ff:<id>` a retry interval past
-- the start. Also how a worker schedules the next run of a periodic task: then the task must
-- still be in the tasks hash (a cancelled one is not run again).
-- KEYS[1]: the task counter {<name>:org.redisson.executor.RemoteExecutorService}:counter
-- KEYS[2]: the status key (exists once the executor is shut down) ...:status
-- KEYS[3]: the scheduler zset ...:scheduler
-- KEYS[4]: the scheduler channel ...:scheduler-channel
-- KEYS[5]: the tasks hash ...:tasks
-- KEYS[6]: the retry interval key ...:retry-interval
-- KEYS[7]: the expiration zset ...:expiration
-- KEYS[8]: the task's latch ...:task-latch:<id>
-- ARGV[1]: the start time (epoch ms)
-- ARGV[2]: the task id (32 hex)
-- ARGV[3]: the task's bytes (a RemoteServiceRequest in the executor's codec)
-- ARGV[4]: the retry interval (ms); 0: tasks are not retried (unless the key says otherwise)
-- ARGV[5]: when the task expires unstarted (epoch ms); 0: never
-- ARGV[6]: 1: a next run, only while the task is in the tasks hash; 0: a new task, whose id
--          must not be there
-- Returns: 1 when scheduled; 0 when the executor is shut down or the next run's task is gone
-- (nothing written); a new task whose id exists fails with an error (nothing written).
local present = redis.call('hexists', KEYS[5], ARGV[2]) == 1
if ARGV[6] == '1' and not present then
  return 0
end
if ARGV[6] ~= '1' and present then
  return redis.error_reply('ERR task id ' .. ARGV[2] .. ' exists already')
end
if redis.call('exists', KEYS[2]) == 1 then
  return 0
end
local retry_interval = redis.call('get', KEYS[6])
if retry_interval ~= false then
  redis.call('zadd', KEYS[3], tonumber(ARGV[1]) + tonumber(retry_interval), 'ff:' .. ARGV[2])
elseif tonumber(ARGV[4]) > 0 then
  redis.call('set', KEYS[6], ARGV[4])
  redis.call('zadd', KEYS[3], tonumber(ARGV[1]) + tonumber(ARGV[4]), 'ff:' .. ARGV[2])
end
if tonumber(ARGV[5]) > 0 then
  redis.call('zadd', KEYS[7], ARGV[5], ARGV[2])
end
redis.call('zadd', KEYS[3], ARGV[1], ARGV[2])
redis.call('hset', KEYS[5], ARGV[2], ARGV[3])
redis.call('del', KEYS[8])
redis.call('incr', KEYS[1])
if redis.call('zrange', KEYS[3], 0, 0)[1] == ARGV[2] then
  redis.call('publish', KEYS[4], ARGV[1])
end
return 1
