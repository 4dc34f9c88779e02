-- Take one permit of a permit-expirable semaphore (Redisson's RPermitExpirableSemaphore
-- layout), first reclaiming permits whose lease has run out. Safe to retry with the same id.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: the new permit's id (16 raw bytes)
-- ARGV[2]: its expiry, epoch ms (ARGV[4] for a permit that never expires)
-- ARGV[3]: now, epoch ms (the caller's clock)
-- ARGV[4]: the "never expires" score, 922337203685477
-- ARGV[5]: the publish command ("publish" or "spublish")
-- Returns: ARGV[1] when the permit was taken (n decremented, id recorded), also when an
--          earlier try of the same request had taken it;
--          ':' .. <nearest expiry, epoch ms> when no permit is free but a held one expires;
--          nil when no permit is free and none of the held ones expires (wait for a release).
-- Expired permits are removed from KEYS[2] and added back to n, and the new count is
-- published (when positive). Keys of another type fail with WRONGTYPE before anything is
-- written.
-- @include integer_count
local value, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
if redis.call('zscore', KEYS[2], ARGV[1]) ~= false then
  return ARGV[1]
end
local available = tonumber(value or '0')
local expired = redis.call('zrangebyscore', KEYS[2], '-inf', ARGV[3], 'limit', 0, 1000)
if #expired > 0 then
  redis.call('zrem', KEYS[2], unpack(expired))
  available = add_count(KEYS[1], #expired, ARGV[5], KEYS[3])
end
if available >= 1 then
  redis.call('decr', KEYS[1])
  redis.call('zadd', KEYS[2], ARGV[2], ARGV[1])
  return ARGV[1]
end
local nearest = redis.call('zrange', KEYS[2], 0, 0, 'withscores')
if nearest[2] ~= nil and tonumber(nearest[2]) < tonumber(ARGV[4]) then
  return ':' .. nearest[2]
end
return nil
