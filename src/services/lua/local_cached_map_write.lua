-- LocalCachedMap's writes (Redisson's RedissonLocalCachedMap scripts): one Map write on the
-- hash and, when it changed the hash, the message telling the other instances' caches, plus
-- the updates log entry under the load reconnection strategy.
-- KEYS[1]: the map's hash
-- KEYS[2]: its topic {<name>}:topic
-- KEYS[3]: its updates log redisson__cache_updates_log:{<name>} (a sorted set)
-- ARGV[1]: the operation: put, put_if_absent, put_if_exists, fast_put, fast_put_if_absent,
--          fast_put_if_exists, replace_if_equal, remove, fast_remove, put_all, add_and_get
-- ARGV[2]: the publish command (PUBLISH, or SPUBLISH on a Cluster with sharded pub/sub)
-- ARGV[3]: '0' publish nothing, '1' publish, '2' publish and log
-- ARGV[4]: now, ms since the epoch (the log entries' score)
-- ARGV[5]: log entries scored below this are trimmed ('2' only)
-- ARGV[6]: n, the number of the operation's arguments, ARGV[7 .. 6+n]: as Map's (key, value;
--          replace_if_equal: key, expected, '1' + update or '0' + ''; fast_remove: the keys;
--          put_all: key, value, key, value...; add_and_get: key, delta)
-- ARGV[7+n ..]: the message(s) then the log entry id(s): one each for the keyed operations;
--          for fast_remove one message and one log id per key (messages first); for put_all
--          one message, then one log id per entry
-- Returns: what Map's operation returns (see map_*.lua and MapOp): the old value or nil,
--          1/0, the count of removed keys, the new number. A key of another type fails with
--          WRONGTYPE before anything is written.
local op = ARGV[1]
local n = tonumber(ARGV[6])
local a = 7
local extra = 7 + n

local function tell(message, log_id)
  if ARGV[3] == '0' then
    return
  end
  if ARGV[3] == '2' then
    redis.call('zadd', KEYS[3], ARGV[4], log_id)
    redis.call('zremrangebyscore', KEYS[3], 0, '(' .. ARGV[5])
  end
  redis.call(ARGV[2], KEYS[2], message)
end

local key = ARGV[a]
if op == 'put' then
  local old = redis.call('hget', KEYS[1], key)
  redis.call('hset', KEYS[1], key, ARGV[a + 1])
  tell(ARGV[extra], ARGV[extra + 1])
  return old
elseif op == 'fast_put' then
  local added = redis.call('hset', KEYS[1], key, ARGV[a + 1])
  tell(ARGV[extra], ARGV[extra + 1])
  return added
elseif op == 'put_if_absent' or op == 'fast_put_if_absent' then
  if redis.call('hsetnx', KEYS[1], key, ARGV[a + 1]) == 1 then
    tell(ARGV[extra], ARGV[extra + 1])
    if op == 'put_if_absent' then
      return nil
    end
    return 1
  end
  if op == 'put_if_absent' then
    return redis.call('hget', KEYS[1], key)
  end
  return 0
elseif op == 'put_if_exists' or op == 'fast_put_if_exists' then
  local old = redis.call('hget', KEYS[1], key)
  if old == false then
    if op == 'put_if_exists' then
      return nil
    end
    return 0
  end
  redis.call('hset', KEYS[1], key, ARGV[a + 1])
  tell(ARGV[extra], ARGV[extra + 1])
  if op == 'put_if_exists' then
    return old
  end
  return 1
elseif op == 'replace_if_equal' then
  if redis.call('hget', KEYS[1], key) ~= ARGV[a + 1] then
    return 0
  end
  if ARGV[a + 2] == '1' then
    redis.call('hset', KEYS[1], key, ARGV[a + 3])
  else
    redis.call('hdel', KEYS[1], key)
  end
  tell(ARGV[extra], ARGV[extra + 1])
  return 1
elseif op == 'remove' then
  local old = redis.call('hget', KEYS[1], key)
  if redis.call('hdel', KEYS[1], key) == 1 then
    tell(ARGV[extra], ARGV[extra + 1])
  end
  return old
elseif op == 'fast_remove' then
  local removed = 0
  for i = 0, n - 1 do
    if redis.call('hdel', KEYS[1], ARGV[a + i]) == 1 then
      removed = removed + 1
      tell(ARGV[extra + i], ARGV[extra + n + i])
    end
  end
  return removed
elseif op == 'put_all' then
  for i = a, a + n - 1, 1000 do
    redis.call('hset', KEYS[1], unpack(ARGV, i, math.min(i + 999, a + n - 1)))
  end
  if ARGV[3] == '2' then
    for i = 1, n / 2 do
      redis.call('zadd', KEYS[3], ARGV[4], ARGV[extra + i])
    end
    redis.call('zremrangebyscore', KEYS[3], 0, '(' .. ARGV[5])
  end
  if ARGV[3] ~= '0' then
    redis.call(ARGV[2], KEYS[2], ARGV[extra])
  end
  return n / 2
elseif op == 'add_and_get' then
  local result = redis.call('hincrbyfloat', KEYS[1], key, ARGV[a + 1])
  tell(ARGV[extra], ARGV[extra + 1])
  return result
end
return redis.error_reply('LocalCachedMap: no such write ' .. op)
