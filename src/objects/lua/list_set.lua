-- List set: replaces the element at an index and answers the one it replaced (Redisson's
-- RList.set).
-- KEYS[1]: the list n
-- ARGV[1]: the index (negative counts from the tail)
-- ARGV[2]: the new element's bytes
-- Returns: the element it replaced. An index out of range fails with "ERR index out of range"
--          (from LSET), a key of another type with WRONGTYPE; nothing changes in either case.
local previous = redis.call('lindex', KEYS[1], ARGV[1])
redis.call('lset', KEYS[1], ARGV[1], ARGV[2])
return previous
