-- Release one hold of a re-entrant lock; safe to retry with the same request id.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the release channel P(redisson_lock__channel, n)
-- KEYS[3]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: the release message ("0")
-- ARGV[2]: lease in ms, re-applied when holds remain
-- ARGV[3]: owner field <client-id>:<owner-id>
-- ARGV[4]: the publish command ("publish" or "spublish")
-- ARGV[5]: latch lifetime in ms (covers every retry of this unlock)
-- Returns: nil = the caller does not hold the lock (nothing changed);
--          0 = one hold released, the owner still holds it; 1 = fully released (key deleted,
--          ARGV[1] published). A retry whose first attempt ran returns that first result.
local earlier = redis.call('get', KEYS[3])
if earlier ~= false then
  return tonumber(earlier)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local holds = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if holds > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[3], 0, 'px', ARGV[5])
  return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
