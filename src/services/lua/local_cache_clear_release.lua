-- A cache that cleared itself for another instance's clear_local_cache says so: one permit on
-- the clearing instance's semaphore, if it still waits (Redisson's releaseIfExists), and the
-- semaphore's wake-up message for its waiter.
-- KEYS[1]: the semaphore <name>:clear:<hex request id>
-- KEYS[2]: its channel redisson_sc:{<semaphore>}
-- ARGV[1]: the publish command (PUBLISH or SPUBLISH)
-- Returns: 1 if released, 0 when the semaphore is gone (the clearing instance stopped waiting).
if redis.call('exists', KEYS[1]) == 0 then
  return 0
end
local value = redis.call('incrby', KEYS[1], 1)
redis.call(ARGV[1], KEYS[2], value)
return 1
