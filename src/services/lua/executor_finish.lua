-- A worker is done with a task run (Redisson's TasksRunnerService finish): its retry entry goes,
-- the task is counted out, and the last task of a shut-down executor terminates it. A task that
-- runs only once also leaves the tasks hash (unless it is scheduled again meanwhile); a periodic
-- one stays there for its next run, which counts it in again. A cancel during the run left the
-- id in the cancelled-runs set (executor_cancel.lua): this run is the one it meant, so it goes.
-- KEYS[1]: the task counter {<name>:org.redisson.executor.RemoteExecutorService}:counter
-- KEYS[2]: the status key ...:status
-- KEYS[3]: the termination channel ...:termination-topic
-- KEYS[4]: the tasks hash ...:tasks
-- KEYS[5]: the scheduler zset ...:scheduler
-- KEYS[6]: the retry interval key ...:retry-interval
-- KEYS[7]: the expiration zset ...:expiration
-- KEYS[8]: the cancelled-runs set ...:cancelled-runs
-- ARGV[1]: the shut-down state ("1"); ARGV[2]: the terminated state ("2")
-- ARGV[3]: the task id
-- ARGV[4]: 1: the task leaves the tasks hash; 0: it stays (a periodic task)
-- Returns: nil.
-- @include executor_count_out
if ARGV[4] == '1' and redis.call('zscore', KEYS[5], ARGV[3]) == false then
  redis.call('hdel', KEYS[4], ARGV[3])
  redis.call('zrem', KEYS[7], ARGV[3])
end
redis.call('zrem', KEYS[5], 'ff:' .. ARGV[3])
redis.call('srem', KEYS[8], ARGV[3])
count_out(KEYS[1], KEYS[8], KEYS[2], ARGV[1], ARGV[2], KEYS[6], KEYS[3])
return nil
