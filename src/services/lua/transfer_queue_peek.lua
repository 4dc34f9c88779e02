-- TransferQueue::peek (Redisson's RedissonTransferQueue.peekAsync): the request at the head of
-- the remote service's request list, left queued.
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- Returns: the head request's bytes (RemoteServiceRequest), or nil when none is queued. A key of
--          another type fails with WRONGTYPE.
local id = redis.call('lindex', KEYS[1], 0)
if id ~= false then
  return redis.call('hget', KEYS[2], id)
end
return nil
