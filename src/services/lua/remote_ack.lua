-- A worker acks the request it took (Redisson's worker ack script and the RPUSH after it, in one
-- round trip): it claims the request's ack key, and only when the claim made the key (no caller
-- gave up on the ack and claimed it first, see remote_ack_again.lua) pushes the ack to the
-- caller's response list and goes on to run the method.
-- KEYS[1]: the ack key {<service>:remote}:<request id>:ack
-- KEYS[2]: the caller's response list {remote_response}:<executor id>
-- ARGV[1]: the ack key's life in milliseconds (the ack timeout)
-- ARGV[2]: the ack's bytes (RemoteServiceAck in the service's codec)
-- Returns: 1 when acked (the worker runs the method), 0 when the caller gave up first. A
--          response list of another type fails with WRONGTYPE before anything is written.
local kind = redis.call('type', KEYS[2]).ok
if kind ~= 'none' and kind ~= 'list' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
if redis.call('setnx', KEYS[1], 1) == 0 then
  return 0
end
redis.call('pexpire', KEYS[1], ARGV[1])
redis.call('rpush', KEYS[2], ARGV[2])
return 1
