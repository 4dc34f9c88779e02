-- A fair-lock waiter whose wait ran out leaves the queue.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the wait queue P(redisson_lock_queue, n)
-- KEYS[3]: the deadlines P(redisson_lock_timeout, n)
-- KEYS[4]: the channel prefix P(redisson_lock__channel, n); a waiter listens on KEYS[4]:<owner>
-- ARGV[1]: owner field <client-id>:<owner-id> of the waiter that gives up
-- ARGV[2]: the wait slot in ms
-- ARGV[3]: the release message ("0")
-- ARGV[4]: the publish command ("publish" or "spublish")
-- Returns: 1 if the caller was queued and left, 0 if it was not queued (already dropped).
-- Everyone behind the caller moves up one place, so their deadlines move up one slot (the
-- deadlines never drift upward however many waiters give up). When the caller was the head,
-- the new head is woken, whether the lock is free (a release message to the old head may have
-- come too late) or held: its last attempt told it to sleep until its turn behind the caller,
-- possibly minutes, and a lock that then expires by its lease publishes nothing. Woken, it
-- tries again and learns the lock's own PTTL.
local queue = redis.call('lrange', KEYS[2], 0, -1)
local position = nil
for i = 1, #queue do
  if queue[i] == ARGV[1] then
    position = i
    break
  end
end
redis.call('zrem', KEYS[3], ARGV[1])
if position == nil then
  return 0
end
local slot = tonumber(ARGV[2])
for i = position + 1, #queue do
  if redis.call('zscore', KEYS[3], queue[i]) ~= false then
    redis.call('zincrby', KEYS[3], -slot, queue[i])
  end
end
redis.call('lrem', KEYS[2], 1, ARGV[1])
if position == 1 and #queue > 1 then
  redis.call(ARGV[4], KEYS[4] .. ':' .. queue[2], ARGV[3])
end
return 1
