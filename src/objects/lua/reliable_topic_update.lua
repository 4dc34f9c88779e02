-- Reliable topic: after a subscriber's delivery, removes the subscribers past their deadline
-- and trims the stream to what some remaining subscriber still needs (Redisson's update script,
-- same steps; where Redisson keeps the entries after the oldest last-delivered id, this also
-- keeps a subscriber's delivered but unacknowledged entries, which it reads again after a crash).
-- KEYS[1]: the stream n
-- KEYS[2]: the zset {n}:timeout
-- ARGV[1]: the subscriber id running this
-- ARGV[2]: now (epoch ms)
-- Returns: 1 while ARGV[1] is still registered, else 0 (it was past its deadline and another
--          subscriber removed it; it must register again).
local expired = redis.call('zrangebyscore', KEYS[2], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(expired) do
  redis.call('xgroup', 'destroy', KEYS[1], id)
  redis.call('zrem', KEYS[2], id)
end
local registered = redis.call('zscore', KEYS[2], ARGV[1])

local function parse(id)
  local ms, seq = string.match(id, '(%d+)%-(%d+)')
  return tonumber(ms), tonumber(seq)
end
-- The first entry some group needs: its oldest pending one, or the one after its last-delivered
-- id (XINFO GROUPS fields: 2 name, 6 pending, 8 last-delivered-id).
local need, need_ms, need_seq, exclusive = nil, 0, 0, false
for _, group in ipairs(redis.call('xinfo', 'groups', KEYS[1])) do
  local id, after = group[8], true
  if tonumber(group[6]) > 0 then
    id, after = redis.call('xpending', KEYS[1], group[2])[2], false
  end
  local ms, seq = parse(id)
  if need == nil or ms < need_ms or (ms == need_ms and (seq < need_seq or
      (seq == need_seq and not after))) then
    need, need_ms, need_seq, exclusive = id, ms, seq, after
  end
end
local kept = 0
if need ~= nil then
  if exclusive then need = '(' .. need end
  kept = #redis.call('xrange', KEYS[1], need, '+')
end
redis.call('xtrim', KEYS[1], 'maxlen', kept)
if registered == false then return 0 end
return 1
