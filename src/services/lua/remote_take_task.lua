-- A worker takes the request whose id its BLPOP popped (Redisson's tasks.remove): the bytes, and
-- the entry gone, so no other worker runs it.
-- KEYS[1]: the tasks hash {<service>:<interface>}:tasks
-- ARGV[1]: the request id
-- Returns: the request's bytes, or nil when it is gone (a caller cancelled it).
local request = redis.call('hget', KEYS[1], ARGV[1])
redis.call('hdel', KEYS[1], ARGV[1])
return request
