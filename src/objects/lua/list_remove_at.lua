-- List remove at: removes the element at an index and answers it (Redisson's RList.remove(int)).
-- KEYS[1]: the list n
-- ARGV[1]: the index (negative counts from the tail)
-- ARGV[2]: a marker made fresh for this call (random bytes): the element is overwritten with it
--          and the marker removed by value, so an equal element elsewhere in the list is kept
--          (Redisson's fixed "DELETED_BY_REDISSON" would remove an earlier element that equals
--          it)
-- Returns: the removed element's bytes, or nil when the index is out of range (nothing
--          changes). A key of another type fails with WRONGTYPE.
local previous = redis.call('lindex', KEYS[1], ARGV[1])
if previous == false then
  return nil
end
redis.call('lset', KEYS[1], ARGV[1], ARGV[2])
redis.call('lrem', KEYS[1], 1, ARGV[2])
return previous
