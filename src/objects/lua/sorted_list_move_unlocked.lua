-- A waiter's move from a sorted list (PriorityBlockingQueue poll_last_and_offer_first_to with a
-- wait, take_last_and_offer_first_to): its greatest element to the head of another list, only
-- while no writer holds the list's RLock (why that is enough: sorted_list_pop_unlocked.lua).
-- KEYS[1]: the list n
-- KEYS[2]: the RLock redisson_sortedset_lock:{n}
-- KEYS[3]: the destination list
-- Returns: the element moved, or nil when the list is empty or the lock is held. A list or a
--          destination of another type fails with WRONGTYPE (nothing changes).
-- @include not_a_list
if redis.call('exists', KEYS[2]) == 1 then
  return not_a_list(KEYS[1]) or not_a_list(KEYS[3]) or false
end
return redis.call('rpoplpush', KEYS[1], KEYS[3])
