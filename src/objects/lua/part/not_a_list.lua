-- Part: refusing a key of another type where a script answers without reaching the list command
-- that would refuse it.
-- not_a_list(key): the WRONGTYPE error reply when `key` holds something other than a list, else
-- nil.
local function not_a_list(key)
  local kind = redis.call('type', key).ok
  if kind ~= 'none' and kind ~= 'list' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  return nil
end
