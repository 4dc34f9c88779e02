-- ScoredSortedSet rank entry: a member's rank and score in one reply (Redisson's rankEntry /
-- revRankEntry send ZRANK/ZREVRANK WITHSCORE, which needs Redis 7.2; this reads the same).
-- KEYS[1]: the sorted set
-- ARGV[1]: the member's bytes
-- ARGV[2]: '1' for the rank from the highest score (ZREVRANK), '0' from the lowest (ZRANK)
-- Returns: {rank, score as text}, or nil when the member is absent. A key of another type fails
--          (WRONGTYPE).
local rank
if ARGV[2] == '1' then
  rank = redis.call('zrevrank', KEYS[1], ARGV[1])
else
  rank = redis.call('zrank', KEYS[1], ARGV[1])
end
if rank == false then
  return false
end
return {rank, redis.call('zscore', KEYS[1], ARGV[1])}
