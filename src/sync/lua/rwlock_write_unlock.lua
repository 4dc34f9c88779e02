-- Release one write hold of a read-write lock; safe to retry with the same request id.
-- KEYS[1]: the lock hash n (see rwlock_read_acquire.lua)
-- KEYS[2]: the channel P(redisson_rwlock, n)
-- KEYS[3]: the hash-tagged name ('{n}', or n when it has a '{'): S(n, x) = KEYS[3] .. ':' .. x
-- KEYS[4]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: the release message ("1": every waiter may retry)
-- ARGV[2]: lease in ms, the least lease kept while write holds remain
-- ARGV[3]: writer field <client-id>:<owner-id>:write
-- ARGV[4]: the publish command ("publish" or "spublish")
-- ARGV[5]: latch lifetime in ms (covers every retry of this unlock)
-- Returns: nil = the owner is not the writer (nothing changed);
--          otherwise the owner's write holds left. At 0 the write hold is gone: if read holds
--          with a live timeout key remain (the writer's own, a downgrade) the lock switches to
--          read mode with the longest of their leases, else n is deleted; either way ARGV[1]
--          is published. A retry whose first attempt ran returns that first result.
-- @include rwlock_read_holds

local earlier = redis.call('get', KEYS[4])
if earlier ~= false then
  return tonumber(earlier)
end
if redis.call('hget', KEYS[1], 'mode') ~= 'write' or redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if left > 0 then
  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then
    redis.call('pexpire', KEYS[1], ARGV[2])
  end
else
  redis.call('hdel', KEYS[1], ARGV[3])
  local longest = longest_read_lease(KEYS[1], KEYS[3])
  if longest > 0 then
    redis.call('hset', KEYS[1], 'mode', 'read')
    redis.call('pexpire', KEYS[1], longest)
  else
    redis.call('del', KEYS[1])
  end
  redis.call(ARGV[4], KEYS[2], ARGV[1])
end
redis.call('set', KEYS[4], left, 'px', ARGV[5])
return left
