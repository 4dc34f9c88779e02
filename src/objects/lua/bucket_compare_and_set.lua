-- Bucket compare-and-set on the stored bytes (Redisson's RBucket.compareAndSet).
-- KEYS[1]: the bucket n (a string: the codec's bytes)
-- ARGV[1]: "1" when a value is expected, "0" when the bucket is expected to be absent
-- ARGV[2]: the expected bytes (ignored when ARGV[1] is "0")
-- ARGV[3]: "1" to store ARGV[4], "0" to delete the bucket
-- ARGV[4]: the new bytes (ignored when ARGV[3] is "0")
-- Returns: 1 if the bucket held what was expected and was changed, else 0. A key of another
--          type fails with WRONGTYPE (from GET) and is left untouched.
local current = redis.call('get', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then
    return 0
  end
elseif current ~= false then
  return 0
end
if ARGV[3] == '1' then
  redis.call('set', KEYS[1], ARGV[4])
else
  redis.call('del', KEYS[1])
end
return 1
