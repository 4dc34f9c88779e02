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
if ARGV[4] ~= '1' then
  local earlier = redis.call('get', KEYS[2])
  if earlier ~= false then
    return tonumber(earlier)
  end
end
local holds = redis.call('hget', KEYS[1], ARGV[2])
if holds == false then
  return nil
end
if tonumber(holds) > 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], -1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  redis.call('set', KEYS[2], 0, 'px', ARGV[3])
  return 0
end
redis.call('del', KEYS[1])
redis.call('set', KEYS[2], 1, 'px', ARGV[3])
return 1
