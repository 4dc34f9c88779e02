-- Bounded blocking queue removals by value: takes elements out and gives their places back
-- (Redisson's RBoundedBlockingQueue remove/removeAll/clear; retainAll, which Redisson leaves to
-- the plain queue and so never gives the places back, too).
-- KEYS[1]: the list n
-- KEYS[2]: the capacity left, redisson_bqs:{n}
-- KEYS[3]: the channel P(redisson_sc, redisson_bqs:{n}), where putters wait
-- ARGV[1]: the publish command ("publish" or "spublish")
-- ARGV[2]: "first" (the first occurrence of each value), "every" (every occurrence of each
--          value), "retain" (every element equal to none of the values), "clear" (all)
-- ARGV[3..]: the values' bytes
-- Returns: how many elements were removed. When some were, the capacity left grows by as many
--          and its new value is published on KEYS[3].
-- A list key of another type, or a capacity key that is not an integer, fails with WRONGTYPE
-- before anything is written.
-- @include bounded_queue
local kind, _, refused = bounded_queue_read(KEYS[1], KEYS[2])
if refused then
  return refused
end
if kind == 'none' then
  return 0
end
local removed = 0
local mode = ARGV[2]
if mode == 'clear' then
  removed = redis.call('llen', KEYS[1])
  redis.call('del', KEYS[1])
elseif mode == 'retain' then
  local keep = {}
  for i = 3, #ARGV do
    keep[ARGV[i]] = true
  end
  local dropped = {}
  for _, element in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
    if not keep[element] and not dropped[element] then
      dropped[element] = true
      removed = removed + redis.call('lrem', KEYS[1], 0, element)
    end
  end
else
  local occurrences = 1
  if mode == 'every' then
    occurrences = 0
  end
  for i = 3, #ARGV do
    removed = removed + redis.call('lrem', KEYS[1], occurrences, ARGV[i])
  end
end
if removed > 0 then
  local value = redis.call('incrby', KEYS[2], removed)
  redis.call(ARGV[1], KEYS[3], value)
end
return removed
