-- Release one hold of a re-entrant lock; safe to retry with the same request id.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the release channel P(redisson_lock__channel, n)
-- KEYS[3]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: the release message ("0")
-- ARGV[2]: lease in ms, re-applied when holds remain
-- ARGV[3]: owner field <client-id>:<owner-id>
-- ARGV[4]: the publish command ("publish" or "spublish")
-- ARGV[5]: latch lifetime in ms (covers every retry of this unlock)
-- ARGV[6]: "1" on the first attempt of this request id, whose latch cannot exist yet (the read
--          is skipped); anything else, or absent, on a retry
-- Returns: nil = the caller does not hold the lock (nothing changed);
--          0 = one hold released, the owner still holds it;
--          1 + r (r >= 0) = fully released (key deleted, ARGV[1] published), where r is what
--          the publish command answered: how many subscribers the message reached (the caller's
--          own client among them when it is still subscribed). The caller yields its next
--          acquisition briefly when r says that waiters elsewhere were woken.
--          A retry whose first attempt ran returns that first result (the latch stores it).
-- Each redis.call costs about as much as a small command, so the common path (first attempt,
-- last hold) makes four: HGET, DEL, PUBLISH, SET.
-- @include request_latch
-- @include lock_release
local earlier = earlier_result(KEYS[3], ARGV[6])
if earlier ~= nil then
  return earlier
end
local released = release_hold(KEYS[1], ARGV[3], ARGV[2], KEYS[3], ARGV[5])
if released ~= 1 then
  return released
end
released = 1 + redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], released, 'px', ARGV[5])
return released
