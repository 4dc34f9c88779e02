-- SetCache retain_all: removes every member that is not one of ARGV[2..] (Redisson's
-- RSetCache.retainAll; it intersects through a scratch zset, here one pass over the members).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2..]: the bytes of the members to keep
-- Returns: 1 if a live member was removed, else 0 (expired members not kept are removed all
--          the same). A key of another type fails with WRONGTYPE before anything changes.
local now = tonumber(ARGV[1])
local keep = {}
for i = 2, #ARGV do
  keep[ARGV[i]] = true
end
local members = redis.call('zrange', KEYS[1], 0, -1, 'WITHSCORES')
local changed = 0
for i = 1, #members, 2 do
  if not keep[members[i]] then
    redis.call('zrem', KEYS[1], members[i])
    if tonumber(members[i + 1]) > now then
      changed = 1
    end
  end
end
return changed
