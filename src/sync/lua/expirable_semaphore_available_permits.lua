-- Count the free permits of a permit-expirable semaphore, first reclaiming expired ones.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: now, epoch ms (the caller's clock)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: the available permit count (0 when n is absent). Reclaimed permits are added back
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
  return add_count(KEYS[1], #expired, ARGV[2], KEYS[3])
end
return tonumber(value or '0')
