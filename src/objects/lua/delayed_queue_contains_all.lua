-- Delayed queue contains-all: whether each given value waits in the queue (Redisson's
-- RDelayedQueue.contains and containsAll), compared as bytes after Redisson's framing.
-- KEYS[1]: the list redisson_delay_queue:{n}
-- ARGV[1..]: the values' bytes (at least one)
-- Returns: 1 if every value waits, else 0. O(elements), read in windows of 100 so the script's
--          memory stays small; stops as soon as every value was seen.
-- @include list_holds_all
return list_holds_all(KEYS[1], ARGV, function(element)
  local _, value = struct.unpack('Bc0Lc0', element)
  return value
end)
