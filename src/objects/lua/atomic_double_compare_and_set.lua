-- AtomicDouble compare-and-set (Redisson's RAtomicDouble.compareAndSet): compares as numbers,
-- since the same double has several texts ("2.5" from Java, "2.50" from elsewhere, "10" from
-- INCRBYFLOAT for 10.0).
-- KEYS[1]: the number n (a string: decimal text)
-- ARGV[1]: the expected value (plain decimal); a missing key matches 0
-- ARGV[2]: the new value (plain decimal, stored as it is)
-- Returns: 1 if the number equalled the expected value and now holds the new one, else 0. A key
--          of another type fails with WRONGTYPE (from GET) and is left untouched.
local current = redis.call('get', KEYS[1])
local expected = tonumber(ARGV[1])
if (current == false and expected == 0) or tonumber(current) == expected then
  redis.call('set', KEYS[1], ARGV[2])
  return 1
end
return 0
