-- Delete a read-write lock whoever holds it, with its read holds' timeout keys, and wake
-- every waiter.
-- KEYS[1]: the lock hash n (see rwlock_read_acquire.lua)
-- KEYS[2]: the channel P(redisson_rwlock, n)
-- KEYS[3]: the hash-tagged name ('{n}', or n when it has a '{'): S(n, x) = KEYS[3] .. ':' .. x
-- ARGV[1]: the release message ("1")
-- ARGV[2]: the publish command ("publish" or "spublish")
-- ARGV[3]: which mode to release: 'read', 'write' or 'any'
-- Returns: 1 if the lock was deleted (and ARGV[1] published); 0 if there was none, it is in
--          the other mode, or n is not a read-write lock (no 'mode' field).
-- @include rwlock_read_holds

local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false or (ARGV[3] ~= 'any' and mode ~= ARGV[3]) then
  return 0
end
each_read_hold(KEYS[1], KEYS[3], function(key)
  redis.call('del', key)
end)
redis.call('del', KEYS[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1
