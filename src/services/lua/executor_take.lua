-- A worker reads the task whose id its BLPOP took (Redisson's executor getTask). The bytes stay
-- in the tasks hash while the task runs, so that its retry entry can queue it again if this
-- worker dies; a task past its expiration is dropped instead (and counted out, which may
-- complete a shutdown). A task cancelled since the BLPOP took its id (in the cancelled-runs
-- set: executor_cancel.lua) is counted out here, as its run ends before it starts.
-- KEYS[1]: the tasks hash {<name>:org.redisson.executor.RemoteExecutorService}:tasks
-- KEYS[2]: the expiration zset ...:expiration
-- KEYS[3]: the task counter ...:counter
-- KEYS[4]: the status key ...:status
-- KEYS[5]: the retry interval key ...:retry-interval
-- KEYS[6]: the termination channel ...:termination-topic
-- KEYS[7]: the scheduler zset ...:scheduler
-- KEYS[8]: the cancelled-runs set ...:cancelled-runs
-- ARGV[1]: the task id
-- ARGV[2]: now (epoch ms)
-- ARGV[3]: the shut-down state ("1"); ARGV[4]: the terminated state ("2")
-- Returns: the task's bytes; nil when it was cancelled or has expired.
-- @include executor_count_out
local function count_this_out()
  count_out(KEYS[3], KEYS[8], KEYS[4], ARGV[3], ARGV[4], KEYS[5], KEYS[6])
end

local expires = redis.call('zscore', KEYS[2], ARGV[1])
if expires ~= false and tonumber(expires) < tonumber(ARGV[2]) then
  redis.call('zrem', KEYS[2], ARGV[1])
  redis.call('zrem', KEYS[7], ARGV[1])
  redis.call('zrem', KEYS[7], 'ff:' .. ARGV[1])
  redis.call('hdel', KEYS[1], ARGV[1])
  count_this_out()
  return nil
end
local task = redis.call('hget', KEYS[1], ARGV[1])
if task == false and redis.call('srem', KEYS[8], ARGV[1]) == 1 then
  count_this_out()
end
return task
