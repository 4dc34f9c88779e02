-- Delayed queue offer: files an element for transfer to the destination queue at a given time
-- (Redisson's RDelayedQueue.offer).
-- KEYS[1]: the destination list n (not written here; named so a Cluster routes by its slot)
-- KEYS[2]: the timeouts zset redisson_delay_queue_timeout:{n} (element -> due time, epoch ms)
-- KEYS[3]: the list redisson_delay_queue:{n} (the elements in offer order)
-- KEYS[4]: the channel redisson_delay_queue_channel:{n}
-- ARGV[1]: the due time, epoch ms
-- ARGV[2]: 8 random bytes, so equal values offered twice are two elements
-- ARGV[3]: the value's bytes (the destination queue's codec)
-- Element: struct 'Bc0Lc0' = one byte 8, the random bytes, the value's length as a native
--          (little-endian, 8-byte) unsigned long, the value's bytes: Redisson's framing.
-- Returns: nothing. When the element is due before every other one, its due time is published
--          (as decimal text) so that transfer tasks waiting for a later time wake up for it.
local element = struct.pack('Bc0Lc0', string.len(ARGV[2]), ARGV[2], string.len(ARGV[3]), ARGV[3])
redis.call('zadd', KEYS[2], ARGV[1], element)
redis.call('rpush', KEYS[3], element)
local head = redis.call('zrange', KEYS[2], 0, 0)
if head[1] == element then
  redis.call('publish', KEYS[4], ARGV[1])
end
return nil
