-- Shuts an executor down (Redisson's shutdown): no task is accepted from now on; with no task
-- left it is terminated at once (and the termination channel hears it), else the last task to
-- finish terminates it.
-- KEYS[1]: the task counter {<name>:org.redisson.executor.RemoteExecutorService}:counter
-- KEYS[2]: the status key ...:status
-- KEYS[3]: the termination channel ...:termination-topic
-- ARGV[1]: the shut-down state ("1"); ARGV[2]: the terminated state ("2")
-- Returns: nil.
if redis.call('exists', KEYS[2]) == 0 then
  local count = redis.call('get', KEYS[1])
  if count == false or count == '0' then
    redis.call('set', KEYS[2], ARGV[2])
    redis.call('publish', KEYS[3], ARGV[2])
  else
    redis.call('set', KEYS[2], ARGV[1])
  end
end
return nil
