-- TimeSeries get/remove at one timestamp (Redisson's RTimeSeries.get/getEntry/remove): the first
-- live entry (in member order) of that timestamp.
-- KEYS[1]: the zset n (score: timestamp)
-- KEYS[2]: the zset redisson__ts_ttl:{n} (score: expiry time, ms)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the timestamp
-- ARGV[3]: 'get' (read it) or 'remove' (remove it from both zsets too)
-- Returns: {member, timestamp} of that entry, or nil when there is no live one.
local members = redis.call('zrangebyscore', KEYS[1], ARGV[2], ARGV[2])
local now = tonumber(ARGV[1])
for _, member in ipairs(members) do
  local expiry = redis.call('zscore', KEYS[2], member)
  if expiry == false or tonumber(expiry) > now then
    if ARGV[3] == 'remove' then
      redis.call('zrem', KEYS[2], member)
      redis.call('zrem', KEYS[1], member)
    end
    return {member, ARGV[2]}
  end
end
return nil
