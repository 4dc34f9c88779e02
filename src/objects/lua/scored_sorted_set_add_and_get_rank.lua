-- ScoredSortedSet add-and-get-rank: ZADD (or ZINCRBY), then the member's rank, atomically
-- (Redisson's RScoredSortedSet.addAndGetRank / addAndGetRevRank / addScoreAndGetRank /
-- addScoreAndGetRevRank).
-- KEYS[1]: the sorted set
-- ARGV[1]: the score, or the delta to add to it (plain decimal)
-- ARGV[2]: the member's bytes
-- ARGV[3]: '1' for the rank from the highest score (ZREVRANK), '0' from the lowest (ZRANK)
-- ARGV[4]: '1' to add ARGV[1] to the member's score (ZINCRBY), '0' to set it (ZADD)
-- Returns: the member's rank (0-based). A key of another type fails (WRONGTYPE) before anything
--          changes.
if ARGV[4] == '1' then
  redis.call('zincrby', KEYS[1], ARGV[1], ARGV[2])
else
  redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
end
if ARGV[3] == '1' then
  return redis.call('zrevrank', KEYS[1], ARGV[2])
end
return redis.call('zrank', KEYS[1], ARGV[2])
