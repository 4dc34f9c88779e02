-- Map replace(key, expected, update) and remove(key, expected): changes the entry only if it
-- holds the expected bytes (Redisson's RMap.replace and RMap.remove with a value).
-- KEYS[1]: the hash n
-- ARGV[1]: the key's bytes
-- ARGV[2]: the expected value's bytes
-- ARGV[3]: "1" to store ARGV[4], "0" to remove the entry
-- ARGV[4]: the new value's bytes (ignored when ARGV[3] is "0")
-- Returns: 1 if the entry held ARGV[2] and was changed, else 0.
if redis.call('hget', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
if ARGV[3] == '1' then
  redis.call('hset', KEYS[1], ARGV[1], ARGV[4])
else
  redis.call('hdel', KEYS[1], ARGV[1])
end
return 1
