-- take_permits(semaphore, latch, permits, latch_ms, first, reserved): takes `permits` from the
-- count key `semaphore` when that many are available beyond `reserved` (permits kept for others),
-- and leaves the request-id latch `latch` for latch_ms so that a retry (`first` not '1') of a
-- request whose first send took them answers 1 again instead of taking more. Returns 1 (taken),
-- 0 and the count available (too few: nothing changes) or read_count's WRONGTYPE error reply.
-- Needs the integer_count part.
local function take_permits(semaphore, latch, permits, latch_ms, first, reserved)
  if first ~= '1' and redis.call('get', latch) ~= false then
    return 1
  end
  local value, refused = read_count(semaphore, 'semaphore')
  if refused then
    return refused
  end
  local available = value == false and 0 or tonumber(value)
  if available - reserved < tonumber(permits) then
    return 0, available
  end
  redis.call('decrby', semaphore, permits)
  redis.call('set', latch, 1, 'px', latch_ms)
  return 1
end
