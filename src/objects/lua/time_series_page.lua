-- TimeSeries page: one window of ranks of the zset, live entries only (Redisson's
-- RTimeSeries.iterator, which reads rank windows the same way).
-- KEYS[1]: the zset n (score: timestamp)
-- KEYS[2]: the zset redisson__ts_ttl:{n} (score: expiry time, ms)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the first rank of the window
-- ARGV[3]: the window's length (>= 1)
-- Returns: {members read, {member, timestamp, member, timestamp...}} with the live entries of
--          the window, oldest first; fewer members read than the window's length: the last page.
local first = tonumber(ARGV[2])
local page = redis.call('zrange', KEYS[1], first, first + tonumber(ARGV[3]) - 1, 'withscores')
local now = tonumber(ARGV[1])
local live = {}
for i = 1, #page, 2 do
  local expiry = redis.call('zscore', KEYS[2], page[i])
  if expiry == false or tonumber(expiry) > now then
    table.insert(live, page[i])
    table.insert(live, page[i + 1])
  end
end
return {#page / 2, live}
