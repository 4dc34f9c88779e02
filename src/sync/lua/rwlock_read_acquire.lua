-- Take (or re-enter) a read hold of a read-write lock: Redisson's RReadWriteLock layout.
-- KEYS[1]: the lock hash n: field 'mode' = 'read' | 'write', reader fields owner -> hold count,
--          the writer's field owner:write -> hold count
-- KEYS[2]: this owner's hold-timeout prefix S(n, owner) .. ':rwlock_timeout'; read hold i of the
--          owner is the string key KEYS[2] .. ':' .. i (value 1) with its own lease
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: the same owner's writer field <client-id>:<owner-id>:write
-- Returns: nil when acquired (count incremented to i, key KEYS[2]:i set with lease ARGV[1], the
--          hash's lease raised to at least ARGV[1]);
--          otherwise the PTTL of n in ms: how long a waiter may sleep before retrying
--          (-1 when it has no expiry).
-- Acquires when n is absent, in read mode, or in write mode held by ARGV[3] (a downgrade).
-- A hash without 'mode' is not a read-write lock (e.g. a plain lock of the same name): it is
-- treated as held. A key of another type fails with WRONGTYPE and is left untouched.
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  if redis.call('exists', KEYS[1]) == 1 then
    return redis.call('pttl', KEYS[1])
  end
  redis.call('hset', KEYS[1], 'mode', 'read')
elseif mode ~= 'read' and not (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
  return redis.call('pttl', KEYS[1])
end
local hold = redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('set', KEYS[2] .. ':' .. hold, 1, 'px', ARGV[1])
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('pexpire', KEYS[1], ARGV[1])
end
return nil
