-- AtomicLong compare-and-set (Redisson's RAtomicLong.compareAndSet): compares the stored text,
-- which is canonical decimal whoever wrote it, so text equality is number equality.
-- KEYS[1]: the counter n (a string: ASCII decimal)
-- ARGV[1]: the expected value (decimal); a missing key matches "0"
-- ARGV[2]: the new value (decimal)
-- Returns: 1 if the counter held the expected value and now holds the new one, else 0. A key of
--          another type fails with WRONGTYPE (from GET) and is left untouched.
local current = redis.call('get', KEYS[1])
if current == ARGV[1] or (current == false and ARGV[1] == '0') then
  redis.call('set', KEYS[1], ARGV[2])
  return 1
end
return 0
