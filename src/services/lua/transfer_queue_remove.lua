-- TransferQueue::remove_all: takes the queued requests with these ids out of the queue without
-- running them (Redisson's iterator remove takes one out the same way); their producers are
-- not answered.
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- ARGV: the request ids (at least one)
-- Returns: how many were still queued and are gone (a consumer may have taken one since the ids
--          were read). Both keys are read before anything is written, so a key of another type
--          fails with WRONGTYPE and nothing changes.
redis.call('llen', KEYS[1])
redis.call('hlen', KEYS[2])
local removed = 0
for _, id in ipairs(ARGV) do
  if redis.call('lrem', KEYS[1], 1, id) > 0 then
    redis.call('hdel', KEYS[2], id)
    removed = removed + 1
  end
end
return removed
