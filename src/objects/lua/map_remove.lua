-- Map remove: deletes an entry and answers its value (Redisson's RMap.remove).
-- KEYS[1]: the hash n
-- ARGV[1]: the key's bytes
-- Returns: the removed value's bytes, or nil when the key was absent.
local previous = redis.call('hget', KEYS[1], ARGV[1])
if previous ~= false then
  redis.call('hdel', KEYS[1], ARGV[1])
end
return previous
