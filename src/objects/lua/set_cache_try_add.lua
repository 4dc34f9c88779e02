-- SetCache try_add: adds every member only if none of them is live yet (Redisson's
-- RSetCache.tryAdd and addIfAbsent(Map<V, Duration>)).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2..]: pairs: the expiry score to store, the member's bytes
-- Returns: 1 if they were added; 0 if one was live already (nothing changed). A key of another
--          type fails with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local score = redis.call('zscore', KEYS[1], ARGV[i + 1])
  if score ~= false and tonumber(score) > now then
    return 0
  end
end
for i = 2, #ARGV, 2 do
  redis.call('zadd', KEYS[1], ARGV[i], ARGV[i + 1])
end
return 1
