-- TransferQueue::read_all and contains (Redisson's RedissonTransferQueue.readAllAsync): every
-- queued request, in queue order, left queued.
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- Returns: the requests' bytes, in order (an id whose bytes are gone is left out). A key of
--          another type fails with WRONGTYPE.
local ids = redis.call('lrange', KEYS[1], 0, -1)
local result = {}
for i = 1, #ids, 5000 do
  local values = redis.call('hmget', KEYS[2], unpack(ids, i, math.min(i + 4999, #ids)))
  for _, value in ipairs(values) do
    if value then table.insert(result, value) end
  end
end
return result
