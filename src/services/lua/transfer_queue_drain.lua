-- TransferQueue::drain_to (Redisson's RedissonTransferQueue.drainToAsync): takes queued requests
-- from the head without running them (their producers are not answered).
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- ARGV[1]: how many at most; 0: all
-- Returns: the requests' bytes, in order (an id whose bytes are gone is left out). Both keys are
--          read before anything is written, so a key of another type fails with WRONGTYPE and
--          nothing changes.
local count = tonumber(ARGV[1])
local last = -1
if count > 0 then last = count - 1 end
local ids = redis.call('lrange', KEYS[1], 0, last)
local result = {}
if #ids == 0 then
  redis.call('hlen', KEYS[2])  -- the type check the writes below would do
  return result
end
local chunks = {}
for i = 1, #ids, 5000 do
  local chunk = {unpack(ids, i, math.min(i + 4999, #ids))}
  table.insert(chunks, chunk)
  local values = redis.call('hmget', KEYS[2], unpack(chunk))
  for _, value in ipairs(values) do
    if value then table.insert(result, value) end
  end
end
redis.call('ltrim', KEYS[1], #ids, -1)
for _, chunk in ipairs(chunks) do
  redis.call('hdel', KEYS[2], unpack(chunk))
end
return result
