-- Acquire (or re-enter) a Lock as a waiter that takes its turn: Redisson's RLock layout, plus an
-- order among this library's waiters. A non-fair lock wakes every waiter on a release and the
-- first attempt to arrive wins; on a busy lock that lets some waiters lose race after race. Here
-- a waiter that finds the lock taken writes down since when it waits, and a free lock goes to the
-- longest waiter: anyone younger who gets there first defers. Java Redisson's waiters neither
-- write nor read the order (their script is lock_acquire.lua's), so they behave as before; nor
-- does this library's first attempt of an acquisition (lock_acquire.lua too: the uncontended
-- path stays as cheap as Redisson's), so a newcomer may still take a free lock first.
-- KEYS[1]: the lock hash n (field = owner, value = hold count)
-- KEYS[2]: P(redisson_lock_waiters, n), a sorted set: owner field -> since when it waits
--          (server time in microseconds); gone once empty, and expires when nobody renews it
-- KEYS[3]: P(redisson_lock_waiters_late, n): the server time (us) at which a younger waiter
--          first found the lock free while an older one had not come for it yet
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: how long this owner has waited, in microseconds (by the client's clock)
-- ARGV[4]: the grace, in microseconds, that an older waiter has to come for a free lock before a
--          younger one takes it anyway (and drops the late one from the order: a live waiter
--          writes itself back, with its age, on its next attempt)
-- ARGV[5]: "1" re-entrant (a holder asking again counts one more hold), "0" not (-3)
-- ARGV[6]: optional: the hold count to set for a holder asking again (lock_acquire.lua's ARGV[3];
--          a non-re-entrant lock sends 1)
-- Returns: nil when acquired (lease set to ARGV[1]; this owner leaves the order);
--          -3 when ARGV[5] is "0" and ARGV[2] holds it already (nothing changes);
--          otherwise {sleep, ahead}: sleep = how long to sleep, in ms, before trying again unless
--          a release comes first: the lock's PTTL (-1 if a foreign writer left it without
--          expiry), or, when it is free and waits for an older waiter, the rest of the grace (to
--          the waiter that started it) or ten graces (to the others, who hear the release that
--          follows); ahead = how many of this library's waiters are in the order before this one
--          (on a free lock, not counting the one it waits for).
-- A key of another type fails with WRONGTYPE and is left untouched.
local function now_us()
  local time = redis.call('time')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- Writes this owner into the order (keeping the earliest time it gave), keeps the order for as
-- long as the lock may be held plus a minute, and answers {sleep, ahead}. `taking`: 1 when the
-- head of the order is about to take the free lock (it is not ahead for the next turn).
local function join(since, held_for, sleep, taking)
  local known = redis.call('zscore', KEYS[2], ARGV[2])
  -- (ZADD's LT option would do this in one call, but only from Redis 6.2 on.)
  if known == false or tonumber(known) > since then
    redis.call('zadd', KEYS[2], since, ARGV[2])
  end
  local keep = math.max(held_for, 0) + 60000
  if redis.call('pttl', KEYS[2]) < keep then
    redis.call('pexpire', KEYS[2], keep)
  end
  return {sleep, redis.call('zrank', KEYS[2], ARGV[2]) - taking}
end

if redis.call('exists', KEYS[1]) == 1 then
  if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    if ARGV[6] then
      redis.call('hset', KEYS[1], ARGV[2], ARGV[6])
    elseif ARGV[5] == '1' then
      redis.call('hincrby', KEYS[1], ARGV[2], 1)
    else
      return -3
    end
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
  end
  -- Someone holds it: whoever was late for the last free turn is not late for this one.
  redis.call('del', KEYS[3])
  local pttl = redis.call('pttl', KEYS[1])
  return join(now_us() - tonumber(ARGV[3]), pttl, pttl, 0)
end

local head = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
if head[1] ~= nil and head[1] ~= ARGV[2] then
  local now = now_us()
  local since = now - tonumber(ARGV[3])
  if tonumber(head[2]) < since then
    local grace = tonumber(ARGV[4])
    local late = tonumber(redis.call('get', KEYS[3]))
    if late == nil then
      redis.call('set', KEYS[3], now, 'PX', math.ceil(grace * 10 / 1000))
      return join(since, 0, math.ceil(grace / 1000), 1)
    end
    if now - late < grace then
      return join(since, 0, math.ceil(grace * 10 / 1000), 1)
    end
    -- The older waiter did not come in time (gone, or stalled): this one goes ahead.
    redis.call('zrem', KEYS[2], head[1])
  end
end
redis.call('hset', KEYS[1], ARGV[2], 1)
redis.call('pexpire', KEYS[1], ARGV[1])
if head[1] ~= nil then
  redis.call('zrem', KEYS[2], ARGV[2])
  redis.call('del', KEYS[3])
end
return nil
