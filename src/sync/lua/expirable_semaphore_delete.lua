-- Delete a permit-expirable semaphore (its count and its permits), refusing to touch keys of
-- another type.
-- KEYS[1]: n, the available permit count (a string)
-- KEYS[2]: S(n, timeout), a sorted set of the held permits
-- Returns: 1 when something was deleted, 0 when neither key existed. A key of another type
--          fails with WRONGTYPE and nothing is deleted.
local kind = redis.call('type', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'string' then
  return redis.error_reply('WRONGTYPE semaphore ' .. KEYS[1] .. ' is a ' .. kind)
end
kind = redis.call('type', KEYS[2])['ok']
if kind ~= 'none' and kind ~= 'zset' then
  return redis.error_reply('WRONGTYPE semaphore timeouts ' .. KEYS[2] .. ' is a ' .. kind)
end
if redis.call('del', KEYS[1], KEYS[2]) > 0 then
  return 1
end
return 0
