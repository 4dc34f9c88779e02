-- Set a count-down latch's count, only when it is open (Redisson's RCountDownLatch layout).
-- KEYS[1]: the latch n (a string: the count; absent means 0, open)
-- KEYS[2]: the channel redisson_countdownlatch__channel__{n}
-- ARGV[1]: the new count (a positive integer)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: 1 when set (n was absent or <= 0; "1", the new-count message, is published);
--          0 when the latch is still counting down (nothing changes).
-- A key of another type, or a string that is not an integer, fails with WRONGTYPE and is
-- left untouched.
-- @include integer_count
local value, refused = read_count(KEYS[1], 'latch')
if refused then
  return refused
end
if value ~= false and tonumber(value) > 0 then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], '1')
return 1
