-- A caller whose ack did not come in time looks once more (Redisson's tryPollAckAgain): when no
-- worker claimed the ack key, the caller claims it, so a late worker skips the request; when a
-- worker claimed it, its ack is on the way: the key goes and the caller waits for the ack again.
-- KEYS[1]: the ack key {<service>:remote}:<request id>:ack
-- ARGV[1]: the key's life in milliseconds when the caller claims it (the ack timeout)
-- Returns: 0 when no worker took the request (the call failed), 1 when one did.
if redis.call('setnx', KEYS[1], 1) == 1 then
  redis.call('pexpire', KEYS[1], ARGV[1])
  return 0
end
redis.call('del', KEYS[1])
return 1
