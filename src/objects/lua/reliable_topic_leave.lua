-- Reliable topic: removes a subscriber (Redisson's removeSubscriber script): its group and its
-- deadline. What only it had not read is trimmed by the next update of another subscriber.
-- KEYS[1]: the stream n
-- KEYS[2]: the zset {n}:timeout
-- ARGV[1]: the subscriber id
-- Returns: 1 when the group existed, else 0 (the stream is gone, or the group was removed).
local destroyed = 0
if redis.call('exists', KEYS[1]) == 1 then
  destroyed = redis.call('xgroup', 'destroy', KEYS[1], ARGV[1])
end
redis.call('zrem', KEYS[2], ARGV[1])
return destroyed
