-- Part: reading a MapCache entry (Redisson's RMapCache layout). Expects KEYS[1] = the hash,
-- KEYS[2] = redisson__timeout__set:{n}, KEYS[3] = redisson__idle__set:{n}.
-- The hash value is struct 'dLc0': max-idle ms as a double (0: none), then the value's bytes.

-- The packed entry of `field`: its max-idle ms, its value bytes, whether it has an idle score,
-- and the time (ms) it expires at: the earlier of its timeout score and (when it has a max-idle)
-- its idle score; 92233720368547758 when neither is set. nil when the field is absent.
-- `packed`: the field's hash value when the caller has read it already (HGETALL, HRANDFIELD).
local function map_cache_entry(field, packed)
  if packed == nil then
    packed = redis.call('hget', KEYS[1], field)
  end
  if packed == false then
    return nil
  end
  local max_idle, value = struct.unpack('dLc0', packed)
  local expires_at = 92233720368547758
  local has_idle = false
  local timeout = redis.call('zscore', KEYS[2], field)
  if timeout ~= false then
    expires_at = tonumber(timeout)
  end
  if max_idle ~= 0 then
    local idle = redis.call('zscore', KEYS[3], field)
    if idle ~= false then
      has_idle = true
      expires_at = math.min(expires_at, tonumber(idle))
    end
  end
  return {max_idle = max_idle, value = value, has_idle = has_idle, expires_at = expires_at}
end

-- The entry of `field` as map_cache_entry reads it, when it is still live at `now` (ms); nil when
-- the field is absent or its entry has expired (an expired entry counts as absent).
local function map_cache_live_entry(field, now, packed)
  local entry = map_cache_entry(field, packed)
  if entry == nil or entry.expires_at <= now then
    return nil
  end
  return entry
end

-- Redisson's access bookkeeping for a map with a max size ({n}:redisson_options `max-size`
-- set): LRU (the default mode) scores the field with `now`, LFU counts one more access.
-- KEYS[4] = redisson__map_cache__last_access__set:{n}, KEYS[5] = {n}:redisson_options.
local function map_cache_touch(field, now)
  local max_size = tonumber(redis.call('hget', KEYS[5], 'max-size'))
  if max_size == nil or max_size == 0 then
    return
  end
  local mode = redis.call('hget', KEYS[5], 'mode')
  if mode == false or mode == 'LRU' then
    redis.call('zadd', KEYS[4], now, field)
  else
    redis.call('zincrby', KEYS[4], 1, field)
  end
end

-- A read of the live `entry` of `field` at `now`, as Redisson counts one: a max-idle entry's idle
-- deadline moves to now + its max idle, and the max-size access bookkeeping (map_cache_touch).
local function map_cache_read(field, entry, now)
  if entry.has_idle then
    redis.call('zadd', KEYS[3], now + entry.max_idle, field)
  end
  map_cache_touch(field, now)
end

-- Publishes an entry event ('Lc0' per part: 8-byte length, bytes) when some client listens
-- ({n}:redisson_options has-listeners).
local function map_cache_publish(channel, ...)
  if redis.call('hget', KEYS[5], 'has-listeners') == false then
    return
  end
  local message = ''
  for _, part in ipairs({...}) do
    message = message .. struct.pack('Lc0', string.len(part), part)
  end
  redis.call('publish', channel, message)
end

-- Eviction of a bounded map before a put of `field`: removes the lowest-scored (least recently
-- or least often used) entries of the access zset, never `field`, until the hash holds at most
-- max-size entries with `field` in it, from the hash and every zset, publishing a removed event
-- for each.
local function map_cache_evict(field, removed_channel)
  local max_size = tonumber(redis.call('hget', KEYS[5], 'max-size'))
  if max_size == nil or max_size == 0 then
    return
  end
  local excess = redis.call('hlen', KEYS[1]) - max_size
  if redis.call('hexists', KEYS[1], field) == 0 then
    excess = excess + 1
  end
  if excess <= 0 then
    return
  end
  for _, victim in ipairs(redis.call('zrange', KEYS[4], 0, excess)) do
    if excess > 0 and victim ~= field then
      excess = excess - 1
      local packed = redis.call('hget', KEYS[1], victim)
      redis.call('hdel', KEYS[1], victim)
      redis.call('zrem', KEYS[2], victim)
      redis.call('zrem', KEYS[3], victim)
      redis.call('zrem', KEYS[4], victim)
      if packed ~= false then
        local _, value = struct.unpack('dLc0', packed)
        map_cache_publish(removed_channel, victim, value)
      end
    end
  end
end
