-- ScoredSortedSet add-and-get-rank: ZADD, then the member's rank, atomically (Redisson's
-- RScoredSortedSet.addAndGetRank / addAndGetRevRank).
-- KEYS[1]: the sorted set n
-- ARGV[1]: the score (plain decimal)
-- ARGV[2]: the member's bytes
-- ARGV[3]: '1' for the rank from the highest score (ZREVRANK), '0' from the lowest (ZRANK)
-- Returns: the member's rank (0-based). A key of another type fails (WRONGTYPE) before anything
--          changes.
redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == '1' then
  return redis.call('zrevrank', KEYS[1], ARGV[2])
end
return redis.call('zrank', KEYS[1], ARGV[2])
