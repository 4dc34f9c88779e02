-- Take (or re-enter) the write hold of a read-write lock: Redisson's RReadWriteLock layout.
-- KEYS[1]: the lock hash n (see rwlock_read_acquire.lua)
-- KEYS[2]: P(redisson_rwlock_writers, n): this library's waiting writers (rwlock_read_acquire.lua
--          holds new readers back while it has a live entry; Java Redisson never reads it)
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: writer field <client-id>:<owner-id>:write
-- ARGV[3]: the same owner's reader field <client-id>:<owner-id> to refuse an upgrade, or ''
--          to skip that check
-- ARGV[4]: how long a refused writer's entry in KEYS[2] lasts, in ms (the writer tries again
--          before then, renewing it; one that died or stopped waiting lapses); '0': no entry (a
--          single try)
-- ARGV[5]: optional: the writer's hold count to set on re-entry instead of adding one, when the
--          server may count write holds of this owner that the client never learnt of (a lost
--          acquire reply, an unlock a failover forgot; watchdog/hold_registry.hpp)
-- Returns: nil when acquired (n absent: mode set to 'write' and ARGV[2] to 1; re-entry by the
--          writer: ARGV[2] incremented, or set to ARGV[5]; either way the lease is at least ARGV[1];
--          ARGV[2] leaves KEYS[2]);
--          -3 when ARGV[3] is given and that owner holds a read hold of n in read mode: a
--          read->write upgrade, which would wait for itself forever (nothing changes);
--          otherwise the PTTL of n in ms (-1 when it has no expiry), ARGV[2] written into KEYS[2]
--          until ARGV[4] ms from now (KEYS[2] expires when its last entry would lapse).
-- A hash without 'mode' (not a read-write lock) is treated as held. A key of another type
-- fails with WRONGTYPE and is left untouched.
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  if redis.call('exists', KEYS[1]) == 1 then
    return redis.call('pttl', KEYS[1])
  end
  redis.call('hset', KEYS[1], 'mode', 'write', ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  redis.call('zrem', KEYS[2], ARGV[2])
  return nil
end
if mode == 'write' and redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  if ARGV[5] then
    redis.call('hset', KEYS[1], ARGV[2], ARGV[5])
  else
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
  end
  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then
    redis.call('pexpire', KEYS[1], ARGV[1])
  end
  return nil
end
if ARGV[3] ~= '' and mode == 'read' and redis.call('hexists', KEYS[1], ARGV[3]) == 1 then
  return -3
end
local wait = tonumber(ARGV[4])
if wait > 0 then
  local time = redis.call('time')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('zadd', KEYS[2], now + wait, ARGV[2])
  if redis.call('pttl', KEYS[2]) < wait then
    redis.call('pexpire', KEYS[2], wait)
  end
end
return redis.call('pttl', KEYS[1])
