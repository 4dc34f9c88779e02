-- Acquire (or re-enter) a re-entrant lock: Redisson's RLock layout.
-- KEYS[1]: the lock hash n (field = owner, value = hold count)
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: optional: the hold count to set instead of adding one. Sent when the server may count
--          holds of this owner that the client never learnt of (a lost acquire reply, an unlock
--          a failover forgot): the client knows of ARGV[3] - 1 (watchdog/hold_ledger.hpp)
-- Returns: nil when acquired (a new hash counts 1; a re-entry adds one, or sets ARGV[3]; lease
--          set to ARGV[1]);
--          otherwise the lock's PTTL in ms: how long a waiter may sleep before retrying
--          (-1 if a foreign writer left it without expiry).
-- A key of another type fails with WRONGTYPE and is left untouched.
if redis.call('exists', KEYS[1]) == 0 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  if ARGV[3] then
    redis.call('hset', KEYS[1], ARGV[2], ARGV[3])
  else
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
  end
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
