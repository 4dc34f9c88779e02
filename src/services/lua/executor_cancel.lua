-- Cancels a task (Redisson's ScheduledTasksService remove): it leaves the tasks hash, the
-- schedule and the request list. A task that had not started is counted out (which may complete
-- a shutdown); one running now finishes, but a periodic one is not run again.
-- A task out of the list and the schedule is running, or a worker's BLPOP has just taken its id
-- and is about to read it (executor_take.lua): that run is still counted, and whoever ends it
-- counts it out. Its id goes into the cancelled-runs set, so that a worker which then finds the
-- bytes gone knows the run is its to count out (Java's worker would leave it counted: then the
-- executor never terminates). Our own key: Java never writes it, and ignores it.
-- KEYS[1]: the request list {<name>:org.redisson.executor.RemoteExecutorService}
-- KEYS[2]: the scheduler zset ...:scheduler
-- KEYS[3]: the task counter ...:counter
-- KEYS[4]: the status key ...:status
-- KEYS[5]: the termination channel ...:termination-topic
-- KEYS[6]: the tasks hash ...:tasks
-- KEYS[7]: the retry interval key ...:retry-interval
-- KEYS[8]: the expiration zset ...:expiration
-- KEYS[9]: the cancelled-runs set ...:cancelled-runs
-- ARGV[1]: the task id
-- ARGV[2]: the shut-down state ("1"); ARGV[3]: the terminated state ("2")
-- Returns: 1 when the task was removed before it started; 0 when it is running now (it will not
-- run again); nil when there is no such task.
-- @include executor_count_out
local task = redis.call('hget', KEYS[6], ARGV[1])
redis.call('hdel', KEYS[6], ARGV[1])
redis.call('zrem', KEYS[2], 'ff:' .. ARGV[1])
redis.call('zrem', KEYS[8], ARGV[1])
local removed_scheduled = redis.call('zrem', KEYS[2], ARGV[1])
local removed = redis.call('lrem', KEYS[1], 1, ARGV[1])
if task ~= false and (removed > 0 or removed_scheduled > 0) then
  count_out(KEYS[3], nil, KEYS[4], ARGV[2], ARGV[3], KEYS[7], KEYS[5])
  return 1
end
if task == false then
  return nil
end
redis.call('sadd', KEYS[9], ARGV[1])
return 0
