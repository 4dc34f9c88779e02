-- SetCache add: stores each member with one expiry score (Redisson's RSetCache.add(v, ttl) and
-- add(v); here also for several members at once).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the expiry score to store (92233720368547758: never expires)
-- ARGV[3..]: the members' bytes
-- Returns: how many members were absent or expired. A live member is counted as present, but
--          its score is set to ARGV[2] all the same (as Redisson's add does). A key of another
--          type fails with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
local added = 0
for i = 3, #ARGV do
  local expiry = redis.call('zscore', KEYS[1], ARGV[i])
  if expiry == false or tonumber(expiry) <= now then
    added = added + 1
  end
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[i])
end
return added
