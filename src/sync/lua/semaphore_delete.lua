-- Delete a semaphore, refusing to touch a key of another type.
-- KEYS[1]: the semaphore n
-- Returns: 1 when n was deleted, 0 when it did not exist. A key that is not a string fails
--          with WRONGTYPE and is left untouched.
local kind = redis.call('type', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'string' then
  return redis.error_reply('WRONGTYPE semaphore ' .. KEYS[1] .. ' is a ' .. kind)
end
return redis.call('del', KEYS[1])
