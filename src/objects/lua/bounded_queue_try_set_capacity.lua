-- Bounded blocking queue capacity: sets it when none is set yet (Redisson's
-- RBoundedBlockingQueue trySetCapacity).
-- KEYS[1]: the capacity left, redisson_bqs:{n}
-- KEYS[2]: the channel P(redisson_sc, redisson_bqs:{n}), where putters wait
-- ARGV[1]: the capacity (> 0)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: 1 when set now (and published on KEYS[2]), 0 when a capacity was set already.
-- A key of another type fails the GET with WRONGTYPE.
if redis.call('get', KEYS[1]) ~= false then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1
