-- Acquire (or re-enter) a fenced lock: the Lock layout plus a fencing-token counter.
-- KEYS[1]: the lock hash n (field = owner, value = hold count)
-- KEYS[2]: the token counter P(redisson_lock_token, n), a string holding an integer
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: optional: the hold count to set instead of adding one, as in lock_acquire.lua
-- Returns: {1, token} when acquired: hold count incremented, lease set to ARGV[1], the counter
--          incremented (on re-entry too) and its new value returned;
--          {0, pttl} otherwise: the lock's PTTL in ms, how long a waiter may sleep before
--          retrying (-1 if a foreign writer left it without expiry).
-- A key of another type (or a counter that is not an integer) fails before anything changes:
-- the INCR runs first, and only an INCR that succeeded is followed by writes.
local free = redis.call('exists', KEYS[1]) == 0
if free or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  local token = redis.call('incr', KEYS[2])
  if ARGV[3] and not free then
    redis.call('hset', KEYS[1], ARGV[2], ARGV[3])
  else
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
  end
  redis.call('pexpire', KEYS[1], ARGV[1])
  return {1, token}
end
return {0, redis.call('pttl', KEYS[1])}
