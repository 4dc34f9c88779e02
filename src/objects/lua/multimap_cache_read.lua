-- Multimap cache reads of one key that see its expiry (Redisson's RSetMultimapCache /
-- RListMultimapCache containsKey, containsEntry, getAll): an expired key reads as absent, even
-- before a sweeper removed it.
-- KEYS[1]: the index hash n
-- KEYS[2]: the expiry zset (member: key bytes; score: when it expires, ms since the epoch)
-- KEYS[3]: the key's values, the set or list S(n, hash128toBase64(key bytes))
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- ARGV[3]: 'set' or 'list'
-- ARGV[4]: 'contains_key', 'contains_entry' or 'get_all'
-- ARGV[5]: contains_entry: the value's bytes
-- Returns: contains_key, contains_entry: 1 or 0; get_all: the values (a list's in order; none
--          when the key expired). A key of another type fails with WRONGTYPE.
local expires = redis.call('zscore', KEYS[2], ARGV[2])
if expires ~= false and tonumber(expires) <= tonumber(ARGV[1]) then
  if ARGV[4] == 'get_all' then
    return {}
  end
  return 0
end
local op = ARGV[4]
if op == 'contains_key' then
  if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
    return 0
  end
  if ARGV[3] == 'set' then
    return redis.call('scard', KEYS[3]) > 0 and 1 or 0
  end
  return redis.call('llen', KEYS[3]) > 0 and 1 or 0
elseif op == 'contains_entry' then
  if ARGV[3] == 'set' then
    return redis.call('sismember', KEYS[3], ARGV[5])
  end
  return redis.call('lpos', KEYS[3], ARGV[5]) ~= false and 1 or 0
end
if ARGV[3] == 'set' then
  return redis.call('smembers', KEYS[3])
end
return redis.call('lrange', KEYS[3], 0, -1)
