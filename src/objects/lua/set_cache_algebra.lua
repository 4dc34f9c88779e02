-- SetCache set algebra over live members only (Redisson's RSetCache union / intersection / diff,
-- readUnion / readIntersection / readDiff, countIntersection). Redisson copies each set's live
-- members to scratch zsets and runs ZUNIONSTORE & co.; here the live members are gathered in the
-- script, which needs no scratch keys. A member kept from several sets keeps its latest expiry
-- in a union, its earliest in an intersection (Redisson adds the scores up).
-- KEYS: this set cache (a zset: member = value bytes, score = expiry, ms since the epoch), then
--       the named set caches
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: 'union', 'intersection' or 'diff'
-- ARGV[3]: 'store' (the named sets into KEYS[1], replacing it), 'read' or 'count' (KEYS[1] and
--          the named sets)
-- ARGV[4]: 'count': stop counting at this many (0: no limit)
-- Returns: 'store' and 'count': the number of members of the result; 'read': their bytes. A
--          named key of another type fails with WRONGTYPE before anything changes.
local operation = ARGV[2]
local mode = ARGV[3]
local limit = tonumber(ARGV[4])
local first = 1
if mode == 'store' then
  first = 2
end

-- The live members of each source: in order, and member -> score.
local sets = {}
for k = first, #KEYS do
  local flat = redis.call('zrangebyscore', KEYS[k], '(' .. ARGV[1], '+inf', 'WITHSCORES')
  local set = {order = {}, score = {}}
  for i = 1, #flat, 2 do
    set.order[#set.order + 1] = flat[i]
    set.score[flat[i]] = flat[i + 1]
  end
  sets[#sets + 1] = set
end

local members = {}
local scores = {}
if operation == 'union' then
  for _, set in ipairs(sets) do
    for _, member in ipairs(set.order) do
      local score = set.score[member]
      if scores[member] == nil then
        members[#members + 1] = member
        scores[member] = score
      elseif tonumber(score) > tonumber(scores[member]) then
        scores[member] = score
      end
    end
  end
elseif #sets > 0 then
  for _, member in ipairs(sets[1].order) do
    local score = sets[1].score[member]
    local keep = true
    for s = 2, #sets do
      local other = sets[s].score[member]
      if operation == 'intersection' then
        if other == nil then
          keep = false
          break
        end
        if tonumber(other) < tonumber(score) then
          score = other
        end
      elseif other ~= nil then
        keep = false
        break
      end
    end
    if keep then
      members[#members + 1] = member
      scores[member] = score
    end
  end
end

if mode == 'read' then
  return members
end
if mode == 'count' then
  if limit > 0 and #members > limit then
    return limit
  end
  return #members
end
redis.call('del', KEYS[1])
local pairs_out = {}
for _, member in ipairs(members) do
  pairs_out[#pairs_out + 1] = scores[member]
  pairs_out[#pairs_out + 1] = member
  if #pairs_out >= 5000 then
    redis.call('zadd', KEYS[1], unpack(pairs_out))
    pairs_out = {}
  end
end
if #pairs_out > 0 then
  redis.call('zadd', KEYS[1], unpack(pairs_out))
end
return #members
