-- SetCache eviction step: removes expired members, the earliest first (Redisson's
-- ScoredSetEvictionTask, bounded).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the most members to remove (>= 1)
-- Returns: how many members it removed (scores <= now, at most ARGV[2]). Members with scores
--          <= now are the zset's first ranks, so this costs O(log n + removed). A key of another
--          type fails with WRONGTYPE.
local expired = redis.call('zcount', KEYS[1], '-inf', ARGV[1])
local count = math.min(expired, tonumber(ARGV[2]))
if count > 0 then
  redis.call('zremrangebyrank', KEYS[1], 0, count - 1)
end
return count
