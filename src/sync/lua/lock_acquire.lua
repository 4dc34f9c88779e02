-- Acquire (or re-enter) a re-entrant lock: Redisson's RLock layout.
-- KEYS[1]: the lock hash n (field = owner, value = hold count)
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- Returns: nil when acquired (hold count incremented, lease set to ARGV[1]);
--          otherwise the lock's PTTL in ms: how long a waiter may sleep before retrying
--          (-1 if a foreign writer left it without expiry).
-- A key of another type fails with WRONGTYPE and is left untouched.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
