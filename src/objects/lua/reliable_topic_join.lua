-- Reliable topic: registers a subscriber and makes its consumer group (Redisson's addListener
-- script, which this extends so that it can also resume a subscriber whose group still exists).
-- KEYS[1]: the stream n (entries `m` = the message's codec bytes)
-- KEYS[2]: the zset {n}:timeout (member: subscriber id, score: its deadline in epoch ms)
-- ARGV[1]: the id the group starts after when it is made ("0" for a new subscriber, as
--          Redisson: it reads what the stream still holds; the last id it acknowledged when it
--          comes back after losing its group)
-- ARGV[2]: the subscriber id (the group's name, 32 hex digits)
-- ARGV[3]: the subscriber's deadline (now + the watchdog timeout, epoch ms)
-- Returns: 1 when the group was made (XGROUP CREATE ... MKSTREAM), 0 when it existed already.
--          A key of another type fails with WRONGTYPE before anything is written.
if redis.call('exists', KEYS[1]) == 1 then
  for _, group in ipairs(redis.call('xinfo', 'groups', KEYS[1])) do
    if group[2] == ARGV[2] then
      redis.call('zadd', KEYS[2], ARGV[3], ARGV[2])
      return 0
    end
  end
end
redis.call('xgroup', 'create', KEYS[1], ARGV[2], ARGV[1], 'MKSTREAM')
redis.call('zadd', KEYS[2], ARGV[3], ARGV[2])
return 1
