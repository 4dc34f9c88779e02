-- BinaryStream truncate (Java's RBinaryStream channel truncate(size)): cuts the string to its
-- first ARGV[1] bytes; size 0 deletes the key, as Java's does. Unlike Java's script (a plain SET),
-- the time to live is kept: SET ... KEEPTTL.
-- KEYS[1]: the stream (a string)
-- ARGV[1]: the size to keep (>= 0)
-- Returns: nothing. A key of another type fails with WRONGTYPE (STRLEN runs first) and nothing
--          changes.
local size = tonumber(ARGV[1])
local length = redis.call('strlen', KEYS[1])
if size >= length then
  return
end
if size == 0 then
  redis.call('del', KEYS[1])
  return
end
redis.call('set', KEYS[1], redis.call('getrange', KEYS[1], 0, size - 1), 'KEEPTTL')
