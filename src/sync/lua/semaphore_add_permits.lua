-- Add (or, with a negative delta, remove) permits; the count may go negative.
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- KEYS[2]: the channel P(redisson_sc, n)
-- ARGV[1]: the delta (an integer, may be negative)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: the new permit count. When it is positive it is also published on KEYS[2], so
--          waiters re-check. A key of another type, or a string that is not an integer,
--          fails with WRONGTYPE and is left untouched.
-- @include integer_count
local _, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
return add_count(KEYS[1], ARGV[1], ARGV[2], KEYS[2])
