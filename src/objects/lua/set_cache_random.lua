-- SetCache random / remove_random: live members picked at random (Redisson's RSetCache.random:
-- the live members are copied to a scratch zset that ZRANDMEMBER picks from, then dropped).
-- KEYS[1]: the zset n (member = value bytes, score = expiry, ms since the epoch)
-- KEYS[2]: the scratch zset, __redisson_cache_temp:{n} (deleted before the script returns)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: how many distinct members; 0 for one
-- ARGV[3]: '1' to remove the picked members from KEYS[1], '0' to leave them
-- Returns: ARGV[2] = 0: one member's bytes, or nil when none is live; else an array of at most
--          ARGV[2] distinct members. A key of another type fails with WRONGTYPE.
local count = tonumber(ARGV[2])
local live = redis.call('zrangebyscore', KEYS[1], '(' .. ARGV[1], '+inf', 'WITHSCORES')
if #live == 0 then
  if count > 0 then
    return {}
  end
  return false
end
for i = 1, #live, 2 do
  redis.call('zadd', KEYS[2], live[i + 1], live[i])
end
local picked
if count > 0 then
  picked = redis.call('zrandmember', KEYS[2], count)
else
  picked = redis.call('zrandmember', KEYS[2])
end
redis.call('del', KEYS[2])
if ARGV[3] == '1' then
  if count > 0 then
    for _, member in ipairs(picked) do
      redis.call('zrem', KEYS[1], member)
    end
  else
    redis.call('zrem', KEYS[1], picked)
  end
end
return picked
