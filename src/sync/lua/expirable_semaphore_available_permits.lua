-- Count the permits of a permit-expirable semaphore, first reclaiming expired ones (Redisson's
-- availablePermits, acquiredPermits, getPermits).
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: now, epoch ms (the caller's clock)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- ARGV[3]: what to count: 'available' (n), 'acquired' (the permits held) or 'total' (both)
-- Returns: that count (available: 0 when n is absent; total: 0 when n is absent, as Redisson). Reclaimed permits are added back
--          to n and the new count is published (when positive). Keys of another type fail
--          with WRONGTYPE before anything is written.
-- @include integer_count
local value, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
local expired = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[1], 'limit', 0, 1000)
if #expired > 0 then
  redis.call('zrem', KEYS[2], unpack(expired))
  value = add_count(KEYS[1], #expired, ARGV[2], KEYS[3])
end
if ARGV[3] == 'available' then
  return tonumber(value or '0')
end
local acquired = redis.call('zcard', KEYS[2])
if ARGV[3] == 'acquired' then
  return acquired
end
if value == false then
  return 0
end
return tonumber(value) + acquired
