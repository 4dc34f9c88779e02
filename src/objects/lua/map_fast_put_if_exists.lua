-- Map fastPutIfExists: stores a value only if the key is present, without answering the old one.
-- KEYS[1]: the hash n
-- ARGV[1]: the key's bytes
-- ARGV[2]: the value's bytes
-- Returns: 1 if the key was present and the value stored, else 0.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return 1
