-- A worker's answer on its caller's response list (Redisson's RPUSH then PEXPIRE, in one trip):
-- an ack or a response, the list kept for as long as the caller may still read it.
-- KEYS[1]: the response list {remote_response}:<executor id>
-- ARGV[1]: the message's bytes (RemoteServiceAck or RemoteServiceResponse)
-- ARGV[2]: the list's life in milliseconds from now; "" leaves it as it is (an ack)
-- Returns: the list's length. A key of another type fails with WRONGTYPE (nothing written).
local length = redis.call('rpush', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('pexpire', KEYS[1], ARGV[2])
end
return length
