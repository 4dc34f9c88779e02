-- Return permits to a semaphore and tell waiters the new count.
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- KEYS[2]: the channel P(redisson_sc, n)
-- ARGV[1]: how many permits to return (a positive integer)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: the new permit count. When it is positive it is also published on KEYS[2]
--          (decimal text); a count <= 0 wakes nobody (and Java Redisson's listener hands the
--          number to Semaphore#release, which refuses negative values).
-- A key of another type, or a string that is not an integer, fails with WRONGTYPE and is
-- left untouched.
local value = redis.call('get', KEYS[1])
if value ~= false and not string.match(value, '^-?%d+$') then
  return redis.error_reply('WRONGTYPE semaphore ' .. KEYS[1] .. ' does not hold an integer')
end
local count = redis.call('incrby', KEYS[1], ARGV[1])
if count > 0 then
  redis.call(ARGV[2], KEYS[2], count)
end
return count
