-- Release one hold of a spin lock (Lock layout; nobody listens, so nothing is published);
-- safe to retry with the same request id.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: lease in ms, re-applied when holds remain
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: latch lifetime in ms (covers every retry of this unlock)
-- ARGV[4]: "1" on the first attempt of this request id, whose latch cannot exist yet (the read
--          is skipped); anything else, or absent, on a retry
-- Returns: nil = the caller does not hold the lock (nothing changed);
--          0 = one hold released, the owner still holds it; 1 = fully released (key deleted).
--          A retry whose first attempt ran returns that first result.
-- @include request_latch
-- @include lock_release
local earlier = earlier_result(KEYS[2], ARGV[4])
if earlier ~= nil then
  return earlier
end
local released = release_hold(KEYS[1], ARGV[2], ARGV[1], KEYS[2], ARGV[3])
if released == 1 then
  redis.call('set', KEYS[2], 1, 'px', ARGV[3])
end
return released
