-- Bounded blocking queue offer: appends elements when the capacity left allows all of them
-- (Redisson's RBoundedBlockingQueue offer/addAll, its RedissonQueueSemaphore try-acquire).
-- KEYS[1]: the capacity left, a decimal string redisson_bqs:{n} (Redisson's queue semaphore)
-- KEYS[2]: the list n
-- ARGV[1]: how many elements (>= 1)
-- ARGV[2..]: the elements' bytes, in order
-- Returns: 1 when appended (the capacity left drops by ARGV[1]), 0 when they do not all fit
--          (nothing changes), -1 when no capacity was ever set (nothing changes).
-- A list key of another type, or a capacity key that is not an integer, fails with WRONGTYPE
-- before anything is written (Redisson's script would take the permits and then fail the RPUSH).
-- @include bounded_queue
local _, left, refused = bounded_queue_read(KEYS[2], KEYS[1])
if refused then
  return refused
end
if left == false then
  return -1
end
if tonumber(left) < tonumber(ARGV[1]) then
  return 0
end
redis.call('decrby', KEYS[1], ARGV[1])
redis.call('rpush', KEYS[2], unpack(ARGV, 2, #ARGV))
return 1
