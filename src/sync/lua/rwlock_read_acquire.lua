-- Take (or re-enter) a read hold of a read-write lock: Redisson's RReadWriteLock layout.
-- KEYS[1]: the lock hash n: field 'mode' = 'read' | 'write', reader fields owner -> hold count,
--          the writer's field owner:write -> hold count
-- KEYS[2]: this owner's hold-timeout prefix S(n, owner) .. ':rwlock_timeout'; read hold i of the
--          owner is the string key KEYS[2] .. ':' .. i (value 1) with its own lease
-- KEYS[3]: P(redisson_rwlock_writers, n), a sorted set of this library's waiting writers:
--          writer field -> until when (server time, ms) its wait is known to last
--          (rwlock_write_acquire.lua writes it; Java Redisson never reads it)
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: the same owner's writer field <client-id>:<owner-id>:write
-- Returns: nil when acquired (count incremented to i, key KEYS[2]:i set with lease ARGV[1], the
--          hash's lease raised to at least ARGV[1]);
--          otherwise how long a waiter may sleep before retrying, in ms: the PTTL of n (-1 when
--          it has no expiry), or, when it is held back for a waiting writer, the shorter of that
--          and the time until the first writer's entry lapses.
-- Acquires when n is absent, in read mode, or in write mode held by ARGV[3] (a downgrade); but a
-- new reader (one holding no read hold of n yet) is held back while a writer of this library
-- waits in KEYS[3] (an entry that lapsed is dropped): Redisson's read lock admits readers while a
-- writer waits, so that overlapping readers can keep a writer out for ever. Readers of Java
-- Redisson do not look, and behave as before.
-- A hash without 'mode' is not a read-write lock (e.g. a plain lock of the same name): it is
-- treated as held. A key of another type fails with WRONGTYPE and is left untouched.
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  if redis.call('exists', KEYS[1]) == 1 then
    return redis.call('pttl', KEYS[1])
  end
elseif mode ~= 'read' and not (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
  return redis.call('pttl', KEYS[1])
end
if mode ~= 'write' and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  local time = redis.call('time')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('zremrangebyscore', KEYS[3], '-inf', now)
  local first = redis.call('zrange', KEYS[3], 0, 0, 'withscores')
  if first[1] ~= nil then
    local lapses = tonumber(first[2]) - now
    local pttl = redis.call('pttl', KEYS[1])
    if pttl > 0 and pttl < lapses then
      return pttl
    end
    return lapses
  end
end
if mode == false then
  redis.call('hset', KEYS[1], 'mode', 'read')
end
local hold = redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('set', KEYS[2] .. ':' .. hold, 1, 'px', ARGV[1])
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('pexpire', KEYS[1], ARGV[1])
end
return nil
