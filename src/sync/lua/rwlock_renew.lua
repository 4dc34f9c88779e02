-- Watchdog renewal of many read-write lock holds in one call (batched per node/slot).
-- KEYS: the lock hashes n1..nK (the same n appears once per registered owner field)
-- ARGV[1]: lease in milliseconds
-- ARGV[1 + i]: the owner field registered for KEYS[i]: a reader <client-id>:<owner-id>, or a
--              writer <client-id>:<owner-id>:write
-- Returns: an array of K integers:
--   1 = still held: a writer whose field exists, or a reader whose field exists and one of
--       whose hold-timeout keys S(n, owner):rwlock_timeout:i is still alive; those keys and
--       the hash get a lease of at least ARGV[1] (a longer one is kept);
--   0 = no longer held (expired, deleted, taken over, or n is not a hash any more).
-- A key of another type answers 0 for its entry instead of failing the whole batch.
-- @include renew_batch
local lease = tonumber(ARGV[1])
return renew_each(function(name, field)
  local count = redis.pcall('hget', name, field)
  local held = type(count) == 'string'
  if held and string.sub(field, -6) ~= ':write' then
    local tagged = name
    if string.find(name, '{', 1, true) == nil then
      tagged = '{' .. name .. '}'
    end
    local prefix = tagged .. ':' .. field .. ':rwlock_timeout:'
    held = false
    for hold = 1, (tonumber(count) or 0) do
      local ttl = redis.call('pttl', prefix .. hold)
      if ttl ~= -2 then
        held = true
        if ttl < lease then
          redis.call('pexpire', prefix .. hold, lease)
        end
      end
    end
  end
  if held and redis.call('pttl', name) < lease then
    redis.call('pexpire', name, lease)
  end
  return held
end)
