-- Take permits from a semaphore as a waiter that knows its place (semaphore_try_acquire.lua,
-- plus an order among this library's waiters). Every release publishes the count of free
-- permits and wakes every waiter; a waiter that knows how many wait before it lets a release
-- whose count cannot reach it go by without trying (src/sync/acquire_machine.cpp, message()), so
-- a release costs about one attempt instead of one per waiter. A waiter not in the order yet
-- takes only the permits beyond one per waiter in it; among those in it, the first to ask takes.
-- Java Redisson's waiters (and single tries: semaphore_try_acquire.lua) neither write nor read
-- the order, and take whatever is free.
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- KEYS[2]: the acquire latch P(redisson_acquire_latch, n):<request-id>
-- KEYS[3]: P(redisson_semaphore_waiters, n), a sorted set: waiter -> since when it waits (server
--          time in microseconds)
-- KEYS[4]: P(redisson_semaphore_waiters_seen, n), a sorted set: waiter -> when it last tried
--          (server time in milliseconds); a waiter not seen for ARGV[6] ms is dropped from both
-- ARGV[1]: how many permits to take (a positive integer)
-- ARGV[2]: latch lifetime in ms (covers every retry of this attempt)
-- ARGV[3]: "1" on the first send of this request id, whose latch cannot exist yet
-- ARGV[4]: the waiter: an id of this acquisition, unique among all clients
-- ARGV[5]: how long it has waited, in microseconds (by the client's clock)
-- ARGV[6]: after how many ms without an attempt a waiter counts as gone (a live one tries at
--          least once per re-check interval); both sets expire after twice that when unused
-- Returns: 1 when taken (the waiter leaves the order), or when a retry finds that its first send
--          took them; {0, ahead, available} when it may not take them: ahead = how many waiters
--          seen within ARGV[6] are in the order before this one, available = the permits free
--          (fewer than ARGV[1], or kept for the waiters in the order while this one was not in
--          it); a waiter counts the permits taken between releases from it. A key of another
--          type, or a string that is not an integer, fails with WRONGTYPE and is left untouched.
-- @include integer_count
-- @include semaphore_take
-- A waiter not yet in the order comes after everyone in it: while they wait, the permits free are
-- theirs (as many as they are). Otherwise a process that has just released and asks again at once
-- takes the permit its release woke the head for, the head's attempt fails, and every waiter
-- behind counts that take as one served ahead of it (one attempt too early each).
local waiting = redis.call('zcard', KEYS[3])
local reserved = 0
if waiting > 0 and redis.call('zscore', KEYS[3], ARGV[4]) == false then
  reserved = waiting
end
local taken, available = take_permits(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], reserved)
if taken == 1 then
  if redis.call('zrem', KEYS[3], ARGV[4]) == 1 then
    redis.call('zrem', KEYS[4], ARGV[4])
  end
  return 1
end
if taken ~= 0 then
  return taken
end
local time = redis.call('time')
local now_us = tonumber(time[1]) * 1000000 + tonumber(time[2])
local now_ms = math.floor(now_us / 1000)
local gone_after = tonumber(ARGV[6])
-- Waiters that stopped trying (a crashed process) would make everyone behind them wait for a
-- count that never comes; a few are dropped per attempt (a live one writes itself back).
local gone = redis.call('zrangebyscore', KEYS[4], '-inf', now_ms - gone_after, 'LIMIT', 0, 16)
for _, waiter in ipairs(gone) do
  redis.call('zrem', KEYS[3], waiter)
  redis.call('zrem', KEYS[4], waiter)
end
local since = now_us - tonumber(ARGV[5])
local known = redis.call('zscore', KEYS[3], ARGV[4])
if known == false or tonumber(known) > since then
  redis.call('zadd', KEYS[3], since, ARGV[4])
end
redis.call('zadd', KEYS[4], now_ms, ARGV[4])
redis.call('pexpire', KEYS[3], gone_after * 2)
redis.call('pexpire', KEYS[4], gone_after * 2)
return {0, redis.call('zrank', KEYS[3], ARGV[4]), available}
