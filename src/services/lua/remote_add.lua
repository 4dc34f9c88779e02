-- A remote call queued for the workers of an interface (Redisson's RRemoteService add): the
-- request's bytes under its id in the tasks hash, then the id at the tail of the request list,
-- where a worker's BLPOP takes it.
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- ARGV[1]: the request id (32 hex)
-- ARGV[2]: the request's bytes (RemoteServiceRequest in the service's codec)
-- Returns: 1. A list or hash of another type fails with WRONGTYPE before anything is written.
local kind = redis.call('type', KEYS[1]).ok
if kind ~= 'none' and kind ~= 'list' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
kind = redis.call('type', KEYS[2]).ok
if kind ~= 'none' and kind ~= 'hash' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
redis.call('rpush', KEYS[1], ARGV[1])
return 1
