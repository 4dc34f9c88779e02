-- The ack key of a request, claimed by its worker before it sends the ack (Redisson's worker
-- script): only the first claim wins, so a worker does not run a request whose caller already
-- gave up on the ack (the caller claims the key too, see remote_ack_again.lua).
-- KEYS[1]: the ack key {<service>:remote}:<request id>:ack
-- ARGV[1]: its life in milliseconds (the ack timeout)
-- Returns: 1 when this claim made the key (the worker goes on), 0 when it was there already.
if redis.call('setnx', KEYS[1], 1) == 1 then
  redis.call('pexpire', KEYS[1], ARGV[1])
  return 1
end
return 0
