-- A worker process answers a count of the executor's workers (Redisson's countActiveWorkers):
-- its number of workers added to the count of that request, then one permit on the request's
-- semaphore (a release, as RSemaphore's: the permit count is published to its waiters).
-- KEYS[1]: the count ...:workers-counter:<request id>
-- KEYS[2]: the semaphore ...:workers-semaphore:<request id>
-- KEYS[3]: the semaphore's channel redisson_sc:<semaphore>
-- ARGV[1]: this process's workers of the executor
-- Returns: the permits now on the semaphore.
redis.call('incrby', KEYS[1], ARGV[1])
local permits = redis.call('incrby', KEYS[2], 1)
redis.call('publish', KEYS[3], permits)
return permits
