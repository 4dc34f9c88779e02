-- Take permits from a semaphore if enough are available (Redisson's RSemaphore layout).
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- ARGV[1]: how many permits to take (a positive integer)
-- Returns: 1 when taken (n decremented by ARGV[1]); 0 when fewer are available (nothing
--          changes). A key of another type, or a string that is not an integer, fails with
--          WRONGTYPE and is left untouched.
local value = redis.call('get', KEYS[1])
if value == false then
  return 0
end
if not string.match(value, '^-?%d+$') then
  return redis.error_reply('WRONGTYPE semaphore ' .. KEYS[1] .. ' does not hold an integer')
end
if tonumber(value) >= tonumber(ARGV[1]) then
  redis.call('decrby', KEYS[1], ARGV[1])
  return 1
end
return 0
