-- Multimap cache expire_key: sets or clears when one key expires (Redisson's
-- RSetMultimapCache/RListMultimapCache expireKey).
-- KEYS[1]: the index hash n
-- KEYS[2]: the expiry zset S(n, 'redisson_set_multimap_ttl') or S(n, 'redisson_list_multimap_ttl')
--          (member: the key's bytes; score: when it expires, ms since the epoch)
-- ARGV[1]: when the key expires, ms since the epoch; 0: never (its entry is removed)
-- ARGV[2]: the key's bytes
-- Returns: 1 when the multimap has the key, else 0 (nothing changes). An index or expiry key of
--          another type fails with WRONGTYPE before anything is written.
for i, expected in ipairs({'hash', 'zset'}) do
  local kind = redis.call('type', KEYS[i])['ok']
  if kind ~= expected and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return 0
end
if tonumber(ARGV[1]) > 0 then
  redis.call('zadd', KEYS[2], ARGV[1], ARGV[2])
else
  redis.call('zrem', KEYS[2], ARGV[2])
end
return 1
