-- Give a held permit of a permit-expirable semaphore a new expiry.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: the permit's id (16 raw bytes)
-- ARGV[2]: the new expiry, epoch ms
-- ARGV[3]: now, epoch ms (the caller's clock)
-- ARGV[4]: the publish command ("publish" or "spublish")
-- Returns: 1 = updated; 0 = no such permit (nothing changes); -1 = its lease had already run
--          out: the permit is reclaimed (n incremented, new count published when positive),
--          not renewed.
-- Keys of another type fail with WRONGTYPE before anything is written.
-- @include integer_count
-- @include expirable_permit
local expiry, reply = permit_expiry(KEYS[1], KEYS[2], ARGV[1])
if reply then
  return reply
end
if expiry <= tonumber(ARGV[3]) then
  reclaim_permit(KEYS[1], KEYS[2], ARGV[1], ARGV[4], KEYS[3])
  return -1
end
redis.call('zadd', KEYS[2], ARGV[2], ARGV[1])
return 1
