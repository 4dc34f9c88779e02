-- TimeSeries add: stores entries (Redisson's RTimeSeries.add/addAll, 3.52 layout).
-- KEYS[1]: the zset n (member: struct 'BBc0Lc0Lc0' = format 2|3, 16, 16 random bytes, value
--          bytes, label bytes; score: the timestamp)
-- KEYS[2]: the zset redisson__ts_ttl:{n} (the same members; score: the expiry time, ms)
-- ARGV[1]: the expiry time (now + ttl), or with no ttl the floor now + 36500 days
-- ARGV[2]: '1' when ARGV[1] is a ttl deadline, '0' for the no-ttl floor: the score is then
--          max(floor, highest score of KEYS[2]) + 1, as Redisson writes it
-- ARGV[3..]: pairs of timestamp, member (framed by the client)
-- Returns: the number of entries written. A key of another type fails with WRONGTYPE before
--          anything is written.
local expiry = tonumber(ARGV[1])
if ARGV[2] == '0' then
  local last = redis.call('zrange', KEYS[2], -1, -1, 'withscores')
  if #last > 0 and tonumber(last[2]) > expiry then
    expiry = tonumber(last[2])
  end
  expiry = expiry + 1
end
local expiry_text = string.format('%.0f', expiry)
local written = 0
for i = 3, #ARGV, 2 do
  redis.call('zadd', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('zadd', KEYS[2], expiry_text, ARGV[i + 1])
  written = written + 1
end
return written
