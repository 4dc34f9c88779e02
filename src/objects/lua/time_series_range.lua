-- TimeSeries range: the live entries with timestamps in [from, to], oldest or newest first, at
-- most a limit of them; read, removed (poll) or counted as removed (Redisson's RTimeSeries
-- range/rangeReversed/entryRange/first/last/pollFirst/pollLast/removeRange).
-- KEYS[1]: the zset n (score: timestamp)
-- KEYS[2]: the zset redisson__ts_ttl:{n} (score: expiry time, ms)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: from, a score bound ('-inf' allowed)
-- ARGV[3]: to, a score bound ('+inf' allowed); from > to is an empty range
-- ARGV[4]: the most entries to take; 0: all of them
-- ARGV[5]: '1' newest first, '0' oldest first
-- ARGV[6]: 'read', 'poll' (remove the entries taken) or 'remove' (remove every entry in the
--          range, expired ones too, and count the live ones)
-- Returns: 'read'/'poll': a flat array member, timestamp, member, timestamp...; 'remove': the
--          number of live entries removed.
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[4])
local reverse = ARGV[5] == '1'
local action = ARGV[6]
local result = {}
local taken = 0
local offset = 0
-- Windows of 100 keep a removal's memory small; a read of a whole range takes it in one call
-- (windows at growing offsets would cost O(n^2) there), as Redisson does.
local window = 100
if limit > 0 and limit < window then
  window = limit
end
local whole = action == 'read' and limit == 0
while true do
  local page
  local from, to, cmd = ARGV[2], ARGV[3], 'zrangebyscore'
  if reverse then
    from, to, cmd = ARGV[3], ARGV[2], 'zrevrangebyscore'
  end
  if whole then
    page = redis.call(cmd, KEYS[1], from, to, 'withscores')
  else
    page = redis.call(cmd, KEYS[1], from, to, 'withscores', 'limit', offset, window)
  end
  local kept = 0
  for i = 1, #page, 2 do
    local member = page[i]
    local expiry = redis.call('zscore', KEYS[2], member)
    local live = expiry == false or tonumber(expiry) > now
    if live and (limit == 0 or taken < limit) then
      taken = taken + 1
      if action ~= 'remove' then
        table.insert(result, member)
        table.insert(result, page[i + 1])
      end
      if action == 'read' then
        kept = kept + 1
      else
        redis.call('zrem', KEYS[2], member)
        redis.call('zrem', KEYS[1], member)
      end
    elseif action == 'remove' then
      redis.call('zrem', KEYS[2], member)
      redis.call('zrem', KEYS[1], member)
    else
      kept = kept + 1
    end
  end
  if whole or #page < window * 2 or (limit > 0 and taken >= limit) then
    break
  end
  offset = offset + kept
end
if action == 'remove' then
  return taken
end
return result
