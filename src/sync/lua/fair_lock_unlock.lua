-- Release one hold of a fair lock and hand it to the queue's head only; safe to retry with the
-- same request id.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the wait queue P(redisson_lock_queue, n)
-- KEYS[3]: the deadlines P(redisson_lock_timeout, n)
-- KEYS[4]: the channel prefix P(redisson_lock__channel, n); a waiter listens on KEYS[4]:<owner>
-- KEYS[5]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: the release message ("0")
-- ARGV[2]: lease in ms, re-applied when holds remain
-- ARGV[3]: owner field <client-id>:<owner-id>
-- ARGV[4]: the publish command ("publish" or "spublish")
-- ARGV[5]: latch lifetime in ms (covers every retry of this unlock)
-- ARGV[6]: the caller's wall-clock time, epoch ms
-- Returns: nil = the lock exists but the caller holds no hold (nothing changed);
--          0 = one hold released, the owner still holds it;
--          1 = fully released (key deleted, ARGV[1] published to the live queue head's channel);
--          2 = the lock no longer existed: the caller's hold was lost (its lease ran out, or the
--              key was deleted). The head is woken all the same, as Redisson does; Redisson
--              answers 1 here, but a caller must learn that it held nothing.
--          A retry whose first attempt ran returns that first result.
-- @include fair_queue_live_head
-- @include request_latch

-- No first-attempt flag here: the latch is always read.
local earlier = earlier_result(KEYS[5], nil)
if earlier ~= nil then
  return earlier
end

local head = live_queue_head(KEYS[2], KEYS[3], tonumber(ARGV[6]))

if redis.call('exists', KEYS[1]) == 0 then
  wake_queue_head(KEYS[4], head, ARGV[4], ARGV[1])
  return 2
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local holds = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if holds > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[5], 0, 'px', ARGV[5])
  return 0
end
redis.call('del', KEYS[1])
wake_queue_head(KEYS[4], head, ARGV[4], ARGV[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[5])
return 1
