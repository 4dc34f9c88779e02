-- Part: a bounded queue's two keys (Redisson's RBoundedBlockingQueue layout): the list and the
-- capacity left, a decimal string redisson_bqs:{n}.
-- bounded_queue_read(list, capacity): the list's type ('none' or 'list') and the capacity left
-- (its text, or false when none is set); or, as a third result, the WRONGTYPE error reply to
-- return when the list is of another type or the capacity left is not an integer. Reads only,
-- so a script that returns that reply has written nothing.
local function bounded_queue_read(list, capacity)
  local kind = redis.call('type', list).ok
  if kind ~= 'none' and kind ~= 'list' then
    return kind, false,
      redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  local left = redis.call('get', capacity)
  if left ~= false and not string.match(left, '^-?%d+$') then
    return kind, left,
      redis.error_reply('WRONGTYPE bounded queue capacity ' .. capacity .. ' is not an integer')
  end
  return kind, left, nil
end
