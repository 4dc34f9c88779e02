-- release_hold(lock, owner, lease, latch, latch_ms): releases one hold of `owner` on the lock hash
-- `lock` (Redisson's RLock layout: field = owner, value = hold count): nil when it holds none
-- (nothing changes); 0 when holds remain (lease set to `lease`, the unlock latch
-- `latch` set to 0 for latch_ms); 1 when that was the last one: `lock` is deleted, and the
-- caller publishes and sets the latch.
local function release_hold(lock, owner, lease, latch, latch_ms)
  local holds = redis.call('hget', lock, owner)
  if holds == false then
    return nil
  end
  if tonumber(holds) > 1 then
    redis.call('hincrby', lock, owner, -1)
    redis.call('pexpire', lock, lease)
    redis.call('set', latch, 0, 'px', latch_ms)
    return 0
  end
  redis.call('del', lock)
  return 1
end
