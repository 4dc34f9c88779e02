-- Acquire (or re-enter) a fair lock: Redisson's RFairLock layout. Waiters are served in the
-- order they queued; a queued waiter that stops coming back loses its place after its slot.
-- KEYS[1]: the lock hash n (field = owner, value = hold count)
-- KEYS[2]: the wait queue P(redisson_lock_queue, n): a list of owner fields, oldest first
-- KEYS[3]: the deadlines P(redisson_lock_timeout, n): a sorted set, owner field -> the epoch ms
--          after which that waiter, once at the head, is dropped from the queue
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: the wait slot in ms (each queued waiter's allowance; Redisson's 300000 by default)
-- ARGV[4]: the caller's wall-clock time, epoch ms
-- ARGV[5]: "1": join the queue when the lock cannot be taken now; "0": one attempt, no queueing
-- ARGV[6]: "1": re-entrant (a holder's acquire counts); "0": non-re-entrant
-- ARGV[7]: optional: the hold count to set instead of adding one, when the server may count
--          holds of this owner that the client never learnt of (watchdog/hold_registry.hpp); on a
--          non-re-entrant lock only "1" (the client knows of none) takes such a hold over
-- Returns: nil when acquired (hold count incremented, lease set to ARGV[1]; the caller left the
--          queue and everyone behind it moved up one slot);
--          -3 when ARGV[2] already holds a non-re-entrant lock (nothing changes);
--          otherwise how long the caller may sleep before retrying, in ms (a release message on
--          its own channel P(redisson_lock__channel, n):<owner> wakes it sooner): the holder's
--          PTTL (-1 when a foreign writer left no expiry); when the lock is free but promised
--          to an earlier waiter, the time until that waiter's slot ends, at most ARGV[1] (should
--          that waiter take the lock and die holding it, its lease ends about as soon); for a
--          newly queued caller, the time until the waiter ahead of it runs out (its own
--          deadline - slot).
-- A key of another type fails with WRONGTYPE before anything changes.
-- @include fair_queue_live_head
-- @include lock_hold

local expected = {'hash', 'list', 'zset'}
for i = 1, 3 do
  local actual = redis.call('type', KEYS[i])['ok']
  if actual ~= 'none' and actual ~= expected[i] then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
end

local now = tonumber(ARGV[4])
local slot = tonumber(ARGV[3])

local head = live_queue_head(KEYS[2], KEYS[3], now)

if redis.call('exists', KEYS[1]) == 0 and (head == false or head == ARGV[2]) then
  if head ~= false then
    redis.call('lpop', KEYS[2])
  end
  redis.call('zrem', KEYS[3], ARGV[2])
  -- Everyone still waiting moved up one place, so each deadline moves up one slot.
  local waiting = redis.call('zrange', KEYS[3], 0, -1)
  for i = 1, #waiting do
    redis.call('zincrby', KEYS[3], -slot, waiting[i])
  end
  redis.call('hset', KEYS[1], ARGV[2], 1)  -- a new hash: 1 whatever ARGV[7] says
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end

if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  return reenter_hold(KEYS[1], ARGV[2], ARGV[1], ARGV[6] == '1', ARGV[7])
end

local ttl = redis.call('pttl', KEYS[1])
if redis.call('zscore', KEYS[3], ARGV[2]) ~= false then
  if ttl == -2 then
    -- Free, but the head comes first: it takes it (and wakes us when it releases), or its
    -- slot runs out and the next attempt drops it.
    local head_due = tonumber(redis.call('zscore', KEYS[3], head)) - now
    return math.max(0, math.min(head_due, tonumber(ARGV[1])))
  end
  return ttl
end
if ARGV[5] ~= '1' then
  return ttl
end

local tail = redis.call('lindex', KEYS[2], -1)
local tail_deadline = false
if tail ~= false then
  tail_deadline = redis.call('zscore', KEYS[3], tail)
end
if tail_deadline ~= false then
  ttl = tonumber(tail_deadline) - now
end
redis.call('zadd', KEYS[3], ttl + slot + now, ARGV[2])
redis.call('rpush', KEYS[2], ARGV[2])
return ttl
