-- rate_limiter_keep_alive(value_key, permits_key): the times to live of a limiter's keys after a
-- write, as Redisson sets them: the config's keepAliveTime (KEYS[1]) on the config hash and both
-- state keys when it has one, else the config hash's own TTL copied to the two state keys.
local function rate_limiter_keep_alive(value_key, permits_key)
  local keep_alive = redis.call('hget', KEYS[1], 'keepAliveTime')
  if keep_alive ~= false and tonumber(keep_alive) > 0 then
    redis.call('pexpire', KEYS[1], keep_alive)
    redis.call('pexpire', value_key, keep_alive)
    redis.call('pexpire', permits_key, keep_alive)
    return
  end
  local ttl = redis.call('pttl', KEYS[1])
  if ttl > 0 then
    redis.call('pexpire', value_key, ttl)
    redis.call('pexpire', permits_key, ttl)
  end
end
