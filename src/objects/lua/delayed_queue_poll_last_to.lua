-- Delayed queue poll-last-to: takes the last waiting element and pushes its value at the head of
-- another list (Redisson's RDelayedQueue.pollLastAndOfferFirstTo), dropping its due time.
-- KEYS[1]: the timeouts zset redisson_delay_queue_timeout:{n}
-- KEYS[2]: the list redisson_delay_queue:{n}
-- KEYS[3]: the list that receives the value (same hash slot)
-- Returns: the value moved (Redisson's framing removed), or nil when none waits; a WRONGTYPE
--          error, with nothing taken, when KEYS[3] holds another type (Redisson's script would
--          pop the element first and lose it: a script's earlier writes stay when a later fails).
local target = redis.call('type', KEYS[3]).ok
if target ~= 'none' and target ~= 'list' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
local element = redis.call('rpop', KEYS[2])
if not element then return nil end
redis.call('zrem', KEYS[1], element)
local _, value = struct.unpack('Bc0Lc0', element)
redis.call('lpush', KEYS[3], value)
return value
