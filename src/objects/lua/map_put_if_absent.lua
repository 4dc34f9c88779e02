-- Map putIfAbsent: stores a value only if the key is absent (Redisson's RMap.putIfAbsent).
-- KEYS[1]: the hash n
-- ARGV[1]: the key's bytes
-- ARGV[2]: the value's bytes
-- Returns: nil when it stored the value; else the value already there (left as it is).
if redis.call('hsetnx', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  return nil
end
return redis.call('hget', KEYS[1], ARGV[1])
