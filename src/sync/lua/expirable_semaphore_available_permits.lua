-- Count the free permits of a permit-expirable semaphore, first reclaiming expired ones.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: now, epoch ms (the caller's clock)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: the available permit count (0 when n is absent). Reclaimed permits are added back
--          to n and the new count is published (when positive). Keys of another type fail
--          with WRONGTYPE before anything is written.
local value = redis.call('get', KEYS[1])
if value ~= false and not string.match(value, '^-?%d+$') then
  return redis.error_reply('WRONGTYPE semaphore ' .. KEYS[1] .. ' does not hold an integer')
end
local expired = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[1], 'limit', 0, 1000)
if #expired > 0 then
  redis.call('zrem', KEYS[2], unpack(expired))
  local count = redis.call('incrby', KEYS[1], #expired)
  if count > 0 then
    redis.call(ARGV[2], KEYS[3], count)
  end
  return count
end
return tonumber(value or '0')
