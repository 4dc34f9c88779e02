-- A caller takes back a request no worker has taken yet (Redisson's removeAsync, used when a
-- call is cancelled before its ack): the id out of the request list and its bytes out of the
-- tasks hash.
-- KEYS[1]: the request list {<service>:<interface>}
-- KEYS[2]: the tasks hash {<service>:<interface>}:tasks
-- ARGV[1]: the request id
-- Returns: 1 when it was still queued and is gone, 0 when a worker had taken it.
if redis.call('lrem', KEYS[1], 1, ARGV[1]) > 0 then
  redis.call('hdel', KEYS[2], ARGV[1])
  return 1
end
return 0
