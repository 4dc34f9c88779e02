-- SetCache move: moves a live member, with its expiry, to another set cache (Redisson's RSet.move;
-- its RSetCache has none).
-- KEYS[1]: the source zset (member = value bytes, score = expiry, ms since the epoch)
-- KEYS[2]: the destination zset, same layout
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the member's bytes
-- Returns: 1 if it was live in KEYS[1] and moved (replacing its expiry in KEYS[2]), else 0 (an
--          expired one is left where it is). Either key of another type fails with WRONGTYPE
--          before anything changes.
redis.call('zscore', KEYS[2], ARGV[2])
local score = redis.call('zscore', KEYS[1], ARGV[2])
if score == false or tonumber(score) <= tonumber(ARGV[1]) then
  return 0
end
redis.call('zrem', KEYS[1], ARGV[2])
redis.call('zadd', KEYS[2], score, ARGV[2])
return 1
