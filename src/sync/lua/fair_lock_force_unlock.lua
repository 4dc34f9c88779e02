-- Delete a fair lock whoever holds it and wake the queue's head (only the head).
-- KEYS[1]: the lock hash n
-- KEYS[2]: the wait queue P(redisson_lock_queue, n)
-- KEYS[3]: the deadlines P(redisson_lock_timeout, n)
-- KEYS[4]: the channel prefix P(redisson_lock__channel, n); a waiter listens on KEYS[4]:<owner>
-- ARGV[1]: the release message ("0")
-- ARGV[2]: the publish command ("publish" or "spublish")
-- ARGV[3]: the caller's wall-clock time, epoch ms
-- Returns: 1 if a lock was deleted (and the head, if any, woken), 0 if there was none.
-- The queue itself stays: its waiters keep their order.
-- @include fair_queue_live_head

local head = live_queue_head(KEYS[2], KEYS[3], tonumber(ARGV[3]))
if redis.call('del', KEYS[1]) == 1 then
  wake_queue_head(KEYS[4], head, ARGV[2], ARGV[1])
  return 1
end
return 0
