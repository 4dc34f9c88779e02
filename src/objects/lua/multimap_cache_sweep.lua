-- Multimap cache sweep: removes the keys whose expiry passed, with their values (Redisson's
-- MultimapEvictionTask).
-- KEYS[1]: the index hash n
-- KEYS[2]: the expiry zset (member: key bytes; score: when it expires, ms since the epoch)
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: keys to remove at most
-- ARGV[3]: the values keys' prefix, suffixName(n, '') (Redisson's task writes '{n}:', which names
--          other keys when n has a hash tag; this is the prefix its values keys really have)
-- Returns: how many keys expired. An index of another type fails with WRONGTYPE before anything
--          is written.
local kind = redis.call('type', KEYS[1])['ok']
if kind ~= 'hash' and kind ~= 'none' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
local expired = redis.call('zrangebyscore', KEYS[2], 0, ARGV[1], 'limit', 0, ARGV[2])
if #expired == 0 then
  return 0
end
redis.call('zrem', KEYS[2], unpack(expired))
local suffixes = redis.call('hmget', KEYS[1], unpack(expired))
for _, suffix in ipairs(suffixes) do
  if suffix ~= false then
    redis.call('del', ARGV[3] .. suffix)
  end
end
redis.call('hdel', KEYS[1], unpack(expired))
return #expired
