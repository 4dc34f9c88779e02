-- Sorted list insert: puts an element at the index the caller's binary search found (Redisson's
-- RPriorityQueue.add and RSortedSet.add script). The caller holds the RLock
-- redisson_sortedset_lock:{n} while it searched and while this runs, as Redisson does, so the
-- index is still right.
-- KEYS[1]: the list n
-- ARGV[1]: the index (0 .. length)
-- ARGV[2]: the element's bytes
-- Returns: the list's length after it. A key of another type fails with WRONGTYPE (nothing
--          changes).
local len = redis.call('llen', KEYS[1])
if tonumber(ARGV[1]) < len then
  local pivot = redis.call('lindex', KEYS[1], ARGV[1])
  return redis.call('linsert', KEYS[1], 'before', pivot, ARGV[2])
end
return redis.call('rpush', KEYS[1], ARGV[2])
