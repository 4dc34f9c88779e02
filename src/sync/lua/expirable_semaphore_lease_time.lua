-- The lease left to a held permit of a permit-expirable semaphore (Redisson's getLeaseTime).
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: the permit's id (16 raw bytes)
-- ARGV[2]: the expiry score of a permit without lease
-- ARGV[3]: now, epoch ms (the caller's clock)
-- ARGV[4]: the publish command ("publish" or "spublish")
-- Returns: the milliseconds left (at least 1); -1 = held without lease; 0 = not held (unknown,
--          released, or its lease ran out: it is then reclaimed, n incremented and published).
--          Keys of another type fail with WRONGTYPE before anything is written.
-- @include integer_count
-- @include expirable_permit
local expiry, reply = permit_expiry(KEYS[1], KEYS[2], ARGV[1])
if reply then
  return reply
end
if expiry == tonumber(ARGV[2]) then
  return -1
end
local now = tonumber(ARGV[3])
if expiry <= now then
  reclaim_permit(KEYS[1], KEYS[2], ARGV[1], ARGV[4], KEYS[3])
  return 0
end
return expiry - now
