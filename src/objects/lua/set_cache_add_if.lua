-- SetCache conditional add: Redisson's RSetCache addIfAbsent / addIfExists / addIfGreater /
-- addIfLess (one member) and addAllIfAbsent / addAllIfExist / addAllIfGreater / addAllIfLess
-- (several), each member with its own expiry. "Live" is a score after now.
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the condition: 'absent' (not live), 'exists' (live), 'greater' (live and the new
--          expiry is later), 'less' (live and the new expiry is earlier)
-- ARGV[3..]: pairs: the expiry score to store, the member's bytes
-- Returns: how many members met the condition and were stored. A key of another type fails
--          with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
local condition = ARGV[2]
local stored = 0
for i = 3, #ARGV, 2 do
  local expiry = tonumber(ARGV[i])
  local score = redis.call('zscore', KEYS[1], ARGV[i + 1])
  local live = score ~= false and tonumber(score) > now
  local store
  if condition == 'absent' then
    store = not live
  elseif condition == 'exists' then
    store = live
  elseif condition == 'greater' then
    store = live and expiry > tonumber(score)
  else
    store = live and expiry < tonumber(score)
  end
  if store then
    redis.call('zadd', KEYS[1], ARGV[i], ARGV[i + 1])
    stored = stored + 1
  end
end
return stored
