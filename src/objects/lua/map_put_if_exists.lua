-- Map putIfExists / replace: stores a value only if the key is present (Redisson's
-- RMap.putIfExists and RMap.replace(key, value), the same script).
-- KEYS[1]: the hash n
-- ARGV[1]: the key's bytes
-- ARGV[2]: the value's bytes
-- Returns: the value it replaced, or nil when the key was absent (nothing stored).
local previous = redis.call('hget', KEYS[1], ARGV[1])
if previous == false then
  return nil
end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return previous
