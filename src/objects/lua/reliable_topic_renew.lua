-- Reliable topic: the watchdog's renewal of a subscriber (Redisson's renewExpiration script).
-- KEYS[1]: the zset {n}:timeout
-- ARGV[1]: the new deadline (now + the watchdog timeout, epoch ms)
-- ARGV[2]: the subscriber id
-- Returns: 1 when renewed, 0 when the subscriber was no longer registered (left as it is).
if redis.call('zscore', KEYS[1], ARGV[2]) == false then
  return 0
end
redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
return 1
