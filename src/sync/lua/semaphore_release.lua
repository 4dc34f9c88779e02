-- Return permits to a semaphore and tell waiters the new count; safe to retry with the same
-- request id.
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- KEYS[2]: the channel P(redisson_sc, n)
-- KEYS[3]: the release latch P(redisson_release_latch, n):<request-id>
-- ARGV[1]: how many permits to return (a positive integer)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- ARGV[3]: latch lifetime in ms (covers every retry of this release)
-- ARGV[4]: "1" on the first attempt of this request id, whose latch cannot exist yet (the read
--          is skipped); anything else, or absent, on a retry
-- Returns: the new permit count. When it is positive it is also published on KEYS[2]
--          (decimal text); a count <= 0 wakes nobody (and Java Redisson's listener hands the
--          number to Semaphore#release, which refuses negative values). A retry whose first
--          attempt ran returns that attempt's count and changes nothing.
-- A key of another type, or a string that is not an integer, fails with WRONGTYPE and is
-- left untouched.
-- Java Redisson's release is INCRBY + PUBLISH alone; the latch is ours, so that a release whose
-- reply was lost (a broken connection, a restarting server) can be sent again without adding
-- its permits twice. Java clients never read it; it expires by itself.
-- @include request_latch
-- @include integer_count
local earlier = earlier_result(KEYS[3], ARGV[4])
if earlier ~= nil then
  return earlier
end
local _, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
local count = add_count(KEYS[1], ARGV[1], ARGV[2], KEYS[2])
redis.call('set', KEYS[3], count, 'px', ARGV[3])
return count
