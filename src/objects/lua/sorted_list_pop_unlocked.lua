-- A waiter's take from a sorted list (PriorityBlockingQueue/Deque take, poll with a wait, and
-- their element subscriptions): one end popped, only while no writer holds the list's RLock.
-- Every writer (Java's and ours) searches and inserts under that lock, so a list whose lock is
-- free is in order and nobody is between a search and its insert: popping then is what
-- lock, pop, unlock would do, in one round trip. A held lock answers "not now"; the waiter
-- tries again on the lock's release message.
-- KEYS[1]: the list n
-- KEYS[2]: the RLock redisson_sortedset_lock:{n}
-- ARGV[1]: "LPOP" (the least element) or "RPOP" (the greatest)
-- Returns: the element taken, or nil when the list is empty or the lock is held. A list key of
--          another type fails with WRONGTYPE (nothing changes).
-- @include not_a_list
if redis.call('exists', KEYS[2]) == 1 then
  return not_a_list(KEYS[1]) or false
end
if ARGV[1] == 'RPOP' then
  return redis.call('rpop', KEYS[1])
end
return redis.call('lpop', KEYS[1])
