-- ScoredSortedSet replace: the old member gives way to the new one under its score, atomically
-- (Redisson's RScoredSortedSet.replace, the same script).
-- KEYS[1]: the sorted set
-- ARGV[1]: the old member's bytes
-- ARGV[2]: the new member's bytes
-- Returns: 1 if the old member was there (and is replaced), else 0. A key of another type fails
--          (WRONGTYPE) before anything changes.
local score = redis.call('zscore', KEYS[1], ARGV[1])
if score ~= false then
  redis.call('zrem', KEYS[1], ARGV[1])
  redis.call('zadd', KEYS[1], score, ARGV[2])
  return 1
end
return 0
