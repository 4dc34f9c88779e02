-- SetCache remove: removes members, expired ones included (Redisson's RSetCache.remove and
-- removeAll), and counts only the live ones.
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2..]: the members' bytes
-- Returns: how many of the members were present and not expired. A key of another type fails
--          with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
local removed = 0
for i = 2, #ARGV do
  local expiry = redis.call('zscore', KEYS[1], ARGV[i])
  if expiry ~= false then
    if tonumber(expiry) > now then
      removed = removed + 1
    end
    redis.call('zrem', KEYS[1], ARGV[i])
  end
end
return removed
