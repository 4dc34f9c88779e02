-- Map put: stores a value and answers the one it replaced (Redisson's RMap.put).
-- KEYS[1]: the hash n (field: the map-key codec's bytes, value: the map-value codec's)
-- ARGV[1]: the key's bytes
-- ARGV[2]: the value's bytes
-- Returns: the previous value's bytes, or nil when the key was absent. A key of another type
--          fails with WRONGTYPE (from HGET) and is left untouched.
local previous = redis.call('hget', KEYS[1], ARGV[1])
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return previous
