-- Set the total permit count of a permit-expirable semaphore (Redisson's setPermits): the
-- available count becomes the total minus the permits held, and waiters are told.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: the total permit count (>= 0)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: 0. Setting the same total again changes nothing, so a lost reply may be resent.
--          Keys of another type fail with WRONGTYPE before anything is written.
-- @include integer_count
local value, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
local total = tonumber(ARGV[1])
if value == false then
  redis.call('set', KEYS[1], total)
  redis.call(ARGV[2], KEYS[3], total)
  return 0
end
local current = tonumber(value) + redis.call('zcard', KEYS[2])
if current ~= total then
  redis.call('incrby', KEYS[1], total - current)
  redis.call(ARGV[2], KEYS[3], total)
end
return 0
