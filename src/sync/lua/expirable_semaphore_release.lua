-- Return one permit of a permit-expirable semaphore by its id.
-- KEYS[1]: n, the available permit count (a string; absent means 0)
-- KEYS[2]: S(n, timeout), a sorted set: permit id (16 raw bytes) -> expiry, epoch ms
-- KEYS[3]: the channel P(redisson_sc, n)
-- ARGV[1]: the permit's id (16 raw bytes)
-- ARGV[2]: now, epoch ms (the caller's clock)
-- ARGV[3]: the publish command ("publish" or "spublish")
-- Returns: 1 = released (id removed, n incremented, new count published when positive);
--          0 = no such permit (never acquired, already released, or reclaimed after expiry):
--              nothing changes;
--          -1 = the permit's lease had run out: it is reclaimed (as a release) but the caller
--              did not hold it any more.
-- Keys of another type fail with WRONGTYPE before anything is written.
-- @include integer_count
-- @include expirable_permit
local expiry, reply = permit_expiry(KEYS[1], KEYS[2], ARGV[1])
if reply then
  return reply
end
reclaim_permit(KEYS[1], KEYS[2], ARGV[1], ARGV[3], KEYS[3])
if expiry <= tonumber(ARGV[2]) then
  return -1
end
return 1
