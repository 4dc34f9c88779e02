-- SetCache add: stores each member with its own expiry score (Redisson's RSetCache.add(v, ttl),
-- add(v), addAll(Map<V, Duration>); here add_all stores several members with one expiry too).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2..]: pairs: the expiry score to store (92233720368547758: never expires), the member's
--            bytes
-- Returns: how many members were absent or expired. A live member is counted as present, but
--          its score is set all the same (as Redisson's add does). A key of another type fails
--          with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
local added = 0
for i = 2, #ARGV, 2 do
  local expiry = redis.call('zscore', KEYS[1], ARGV[i + 1])
  if expiry == false or tonumber(expiry) <= now then
    added = added + 1
  end
  redis.call('zadd', KEYS[1], ARGV[i], ARGV[i + 1])
end
return added
