-- Part: a multimap's index (Redisson's RSetMultimap/RListMultimap layout). Expects KEYS[1] = the
-- index hash n (field = map-key bytes, value = hash128toBase64 of them); each key's values live
-- in the set or list <prefix><base64>, prefix = suffixName(n, '') ('{n}:', or 'n:' when n has a
-- hash tag). Needs the hash_scan part.

-- Fails with WRONGTYPE (before anything is written) when the index is not a hash.
local function multimap_check_index()
  local kind = redis.call('type', KEYS[1])['ok']
  if kind ~= 'hash' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  return nil
end

-- Fails with WRONGTYPE (before anything is written) when KEYS[3], the expiry zset of the
-- multimap cache layout, is not a sorted set.
local function multimap_check_expiry()
  local kind = redis.call('type', KEYS[3])['ok']
  if kind ~= 'zset' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  return nil
end

-- Calls visit(base64) for every key of the index, reading it in HSCAN pages (never one HGETALL
-- reply). The index is not written meanwhile, so no key is visited twice.
local function multimap_each_suffix(visit)
  hash_find(KEYS[1], 500, function(_, suffix)
    visit(suffix)
    return false
  end)
end

-- The values of the set or list `key` ('set' or 'list' kind), all of them (one key's values:
-- what the caller asked for).
local function multimap_members(kind, key)
  if kind == 'set' then
    return redis.call('smembers', key)
  end
  return redis.call('lrange', key, 0, -1)
end

-- The number of values of the set or list `key`.
local function multimap_count(kind, key)
  if kind == 'set' then
    return redis.call('scard', key)
  end
  return redis.call('llen', key)
end

-- Adds values ARGV[first..] to the set (SADD) or list (RPUSH, in order) `key`; returns how many
-- were added.
local function multimap_add(kind, key, first)
  if kind == 'set' then
    return redis.call('sadd', key, unpack(ARGV, first, #ARGV))
  end
  redis.call('rpush', key, unpack(ARGV, first, #ARGV))
  return #ARGV - first + 1
end
