-- count_out(counter, runs, status, shut_down, terminated, retry_interval, termination): one task
-- fewer on the executor's counter. When it was the last, the counter goes (with the
-- cancelled-runs set `runs`, when given: no run is left for it to name), and an executor whose
-- status is `shut_down` terminates: its retry interval key goes, its status becomes `terminated`,
-- published on `termination` (Redisson's executor scripts end a shutdown the same way).
local function count_out(counter, runs, status, shut_down, terminated, retry_interval,
                         termination)
  if redis.call('decr', counter) ~= 0 then
    return
  end
  if runs then
    redis.call('del', counter, runs)
  else
    redis.call('del', counter)
  end
  if redis.call('get', status) == shut_down then
    redis.call('del', retry_interval)
    redis.call('set', status, terminated)
    redis.call('publish', termination, terminated)
  end
end
