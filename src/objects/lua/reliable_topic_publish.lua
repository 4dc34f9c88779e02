-- Reliable topic: publishes a message (Redisson's RReliableTopic.publish script).
-- KEYS[1]: the stream n
-- ARGV[1]: the message's codec bytes (stored under the field `m`)
-- Returns: the subscribers the message was added for (the stream's consumer groups).
--          A key of another type fails with WRONGTYPE and is left untouched.
redis.call('xadd', KEYS[1], '*', 'm', ARGV[1])
return #redis.call('xinfo', 'groups', KEYS[1])
