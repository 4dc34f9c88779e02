-- Multimap delete / expire / touch / size in memory: one command applied to the index and to every
-- values key it lists (Redisson's RMultimap delete, expire, expireAt, clearExpire,
-- sizeInMemory, unlink, move, the expireIf* forms), the index read in HSCAN pages.
-- KEYS[1]: the index hash n
-- KEYS[2]: the multimap cache layout's expiry zset S(n, 'redisson_set_multimap_ttl') or
--          S(n, 'redisson_list_multimap_ttl'), one more key of the multimap when it exists (a
--          plain multimap's handle on a cache's keys reaches it too)
-- ARGV[1]: the values keys' prefix, suffixName(n, '')
-- ARGV[2]: 'del', 'unlink', 'pexpire', 'pexpireat', 'persist', 'touch', 'memory' or 'move'
-- ARGV[3]: milliseconds for pexpire (a duration) and pexpireat (epoch ms); move: the database
-- ARGV[4]: pexpire and pexpireat: '' or the condition NX, XX, GT or LT
-- ARGV[5]: '1' for a multimap cache: pexpire and pexpireat first add Redisson's
--          'redisson__expiretag' member (never due) so that the zset exists to carry the
--          expiry (an expire_key after it then expires with the rest); persist removes it
-- Returns: del, unlink, touch: how many keys there were; memory: the bytes of all of them (MEMORY USAGE
--          summed); pexpire, pexpireat, persist, move: the command's result on the index (as
--          Redisson).
--          A key of another type fails with WRONGTYPE and nothing is changed.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local ttl_kind = redis.call('type', KEYS[2])['ok']
if ttl_kind ~= 'zset' and ttl_kind ~= 'none' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
local op = ARGV[2]
local function apply(key)
  if op == 'del' or op == 'unlink' or op == 'touch' then
    return redis.call(op, key)
  elseif op == 'memory' then
    return redis.call('memory', 'usage', key) or 0
  elseif op == 'persist' then
    return redis.call('persist', key)
  end
  if ARGV[4] ~= nil and ARGV[4] ~= '' then
    return redis.call(op, key, ARGV[3], ARGV[4])
  end
  return redis.call(op, key, ARGV[3])
end
local total = 0
-- Deleting or expiring the values keys leaves the index as it is until the end, so the scan
-- sees every key once.
multimap_each_suffix(function(suffix)
  total = total + apply(ARGV[1] .. suffix)
end)
if ARGV[5] == '1' then
  if op == 'pexpire' or op == 'pexpireat' then
    redis.call('zadd', KEYS[2], 92233720368547758, 'redisson__expiretag')
  elseif op == 'persist' then
    redis.call('zrem', KEYS[2], 'redisson__expiretag')
  end
end
total = total + apply(KEYS[2])
local own = apply(KEYS[1])
if op == 'del' or op == 'unlink' or op == 'touch' or op == 'memory' then
  return total + own
end
return own
