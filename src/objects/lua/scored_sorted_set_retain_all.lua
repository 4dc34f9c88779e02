-- ScoredSortedSet retainAll: keep only the given members, with their scores, atomically
-- (Redisson's RScoredSortedSet.retainAll: the members go into a temporary set, then ZINTERSTORE
-- with it; none given: the set is deleted). The size is read first so that a key of another
-- type fails (WRONGTYPE) before anything is written.
-- KEYS[1]: the sorted set
-- KEYS[2]: the temporary set, {n}:redisson_temp (in n's hash slot)
-- ARGV: pairs of 0 and a member's bytes (ZADD's arguments), none to delete the set
-- Returns: 1 if a member was removed (or, with none given, the set was deleted), else 0.
local prevSize = redis.call('zcard', KEYS[1])
if #ARGV == 0 then
  return redis.call('del', KEYS[1])
end
redis.call('del', KEYS[2])
for i = 1, #ARGV, 7000 do
  redis.call('zadd', KEYS[2], unpack(ARGV, i, math.min(i + 6999, #ARGV)))
end
local size = redis.call('zinterstore', KEYS[1], 2, KEYS[1], KEYS[2], 'aggregate', 'sum')
redis.call('del', KEYS[2])
return size ~= prevSize and 1 or 0
