-- Take every available permit at once (as java.util.concurrent.Semaphore#drainPermits).
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- Returns: the count before draining; n is now 0. A negative count is reset to 0 as well
--          (and returned as it was). Absent or 0: returns 0 and writes nothing.
-- A key of another type, or a string that is not an integer, fails with WRONGTYPE and is
-- left untouched.
-- @include integer_count
local count, reply = present_count(KEYS[1], 'semaphore')
if reply then
  return reply
end
if count ~= 0 then
  redis.call('set', KEYS[1], 0)
end
return count
