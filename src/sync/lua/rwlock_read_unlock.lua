-- Release one read hold of a read-write lock; safe to retry with the same request id.
-- KEYS[1]: the lock hash n (see rwlock_read_acquire.lua)
-- KEYS[2]: the channel P(redisson_rwlock, n)
-- KEYS[3]: this owner's hold-timeout prefix S(n, owner) .. ':rwlock_timeout'
-- KEYS[4]: the hash-tagged name ('{n}', or n when it has a '{'): S(n, x) = KEYS[4] .. ':' .. x
-- KEYS[5]: the unlock latch P(redisson_unlock_latch, n):<request-id>
-- ARGV[1]: the release message ("0")
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: the publish command ("publish" or "spublish")
-- ARGV[4]: latch lifetime in ms (covers every retry of this unlock)
-- Returns: nil = the owner holds no read hold (nothing changed);
--          otherwise the owner's read holds left (0: it holds none now). The highest hold's
--          timeout key is deleted. In read mode the hash's lease becomes the longest lease
--          left among all read holds; when none is left, n is deleted and ARGV[1] published.
--          In write mode (the writer's own read holds, a downgrade) the writer's lease stays.
--          A retry whose first attempt ran returns that first result.
-- @include rwlock_read_holds

local earlier = redis.call('get', KEYS[5])
if earlier ~= false then
  return tonumber(earlier)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false or redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[2], -1)
redis.call('del', KEYS[3] .. ':' .. (left + 1))
if left <= 0 then
  redis.call('hdel', KEYS[1], ARGV[2])
end
if mode == 'read' then
  local longest = longest_read_lease(KEYS[1], KEYS[4])
  if longest > 0 then
    redis.call('pexpire', KEYS[1], longest)
  else
    redis.call('del', KEYS[1])
    redis.call(ARGV[3], KEYS[2], ARGV[1])
  end
end
redis.call('set', KEYS[5], left, 'px', ARGV[4])
return left
