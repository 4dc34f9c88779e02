-- Bounded blocking queue take without waiting: pops elements from the head and gives their
-- places back (Redisson's RBoundedBlockingQueue poll/drainTo scripts).
-- KEYS[1]: the list n
-- KEYS[2]: the capacity left, redisson_bqs:{n}
-- KEYS[3]: the channel P(redisson_sc, redisson_bqs:{n}), where putters wait
-- ARGV[1]: the publish command ("publish" or "spublish")
-- ARGV[2]: how many to pop at most (>= 1), or 0 for all of them
-- Returns: the popped elements in order (an empty array when none). When some were popped the
--          capacity left grows by their number and its new value is published on KEYS[3].
-- A list key of another type, or a capacity key that is not an integer, fails with WRONGTYPE
-- before anything is written.
-- @include bounded_queue
local kind, _, refused = bounded_queue_read(KEYS[1], KEYS[2])
if refused then
  return refused
end
if kind == 'none' then
  return {}
end
local count = tonumber(ARGV[2])
if count == 0 then
  count = redis.call('llen', KEYS[1])
end
local taken = redis.call('lpop', KEYS[1], count)
if taken == false then
  return {}
end
local value = redis.call('incrby', KEYS[2], #taken)
redis.call(ARGV[1], KEYS[3], value)
return taken
