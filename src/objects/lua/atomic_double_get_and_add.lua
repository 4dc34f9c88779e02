-- AtomicDouble get-and-add: INCRBYFLOAT, answering the value before it as it was stored
-- (subtracting the delta from the new value would round).
-- KEYS[1]: the number n (a string: decimal text)
-- ARGV[1]: the delta (plain decimal)
-- Returns: the text stored before the addition ("0" when the key did not exist). A key of
--          another type (WRONGTYPE) or text that is not a number (INCRBYFLOAT's error) fails
--          before anything changes.
local before = redis.call('get', KEYS[1])
redis.call('incrbyfloat', KEYS[1], ARGV[1])
if before == false then
  return '0'
end
return before
