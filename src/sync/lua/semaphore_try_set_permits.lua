-- Set a semaphore's permit count, only if it has none yet.
-- KEYS[1]: the semaphore n (a string: the available permit count)
-- KEYS[2]: the channel P(redisson_sc, n)
-- ARGV[1]: the permit count (a non-negative integer)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: 1 when n was absent and is now ARGV[1] (published on KEYS[2] when positive);
--          0 when n exists (nothing changes). A key of another type fails with WRONGTYPE.
if redis.call('get', KEYS[1]) ~= false then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
if tonumber(ARGV[1]) > 0 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
end
return 1
