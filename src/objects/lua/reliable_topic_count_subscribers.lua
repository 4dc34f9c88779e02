-- Reliable topic: how many subscribers it has (Redisson's countSubscribers script, which fails
-- on a topic never used; this answers 0 there).
-- KEYS[1]: the stream n
-- Returns: the stream's consumer groups, 0 when there is no stream.
if redis.call('exists', KEYS[1]) == 0 then return 0 end
return #redis.call('xinfo', 'groups', KEYS[1])
