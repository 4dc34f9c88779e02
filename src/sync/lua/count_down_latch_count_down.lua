-- Count a count-down latch down by one; at zero it opens.
-- KEYS[1]: the latch n (a string: the count; absent means 0, open)
-- KEYS[2]: the channel redisson_countdownlatch__channel__{n}
-- ARGV[1]: the publish command ("publish" or "spublish")
-- Returns: the count left. Reaching 0 deletes n and publishes "0" (the open message).
--          Counting down an open latch (n absent) changes nothing and returns 0.
-- A key of another type, or a string that is not an integer, fails with WRONGTYPE and is
-- left untouched.
-- @include integer_count
local _, reply = present_count(KEYS[1], 'latch')
if reply then
  return reply
end
local left = redis.call('decr', KEYS[1])
if left <= 0 then
  redis.call('del', KEYS[1])
  redis.call(ARGV[1], KEYS[2], '0')
  return 0
end
return left
