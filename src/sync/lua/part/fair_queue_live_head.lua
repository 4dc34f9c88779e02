-- live_queue_head(queue, deadlines, now): the first waiter of a fair lock's queue whose slot
-- has not run out, or false. Heads whose slot ran out (crashed waiters, waiters that left without
-- cleaning up) are removed first, so they cannot hold the queue up past their deadline.
local function live_queue_head(queue, deadlines, now)
  local head = redis.call('lindex', queue, 0)
  while head ~= false do
    local deadline = redis.call('zscore', deadlines, head)
    if deadline ~= false and tonumber(deadline) > now then
      return head
    end
    redis.call('lpop', queue)
    redis.call('zrem', deadlines, head)
    head = redis.call('lindex', queue, 0)
  end
  return false
end

-- wake_queue_head(channel_prefix, head, publish, message): publishes `message` with the `publish`
-- command on the channel of the waiter `head` (<channel_prefix>:<head>), when there is one (head
-- not false): a fair lock wakes only its queue's head.
local function wake_queue_head(channel_prefix, head, publish, message)
  if head ~= false then
    redis.call(publish, channel_prefix .. ':' .. head, message)
  end
end
