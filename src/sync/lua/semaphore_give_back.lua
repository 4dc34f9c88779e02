-- Undo an acquisition: give back the permits a semaphore_try_acquire(_in_turn) took, only on the
-- node where it took them. Used when no replica acknowledged the acquisition (Config::
-- sync_replicas): after a failover the client may be talking to the new master, which never saw
-- the acquisition, and a plain release there would add permits nobody took.
-- KEYS[1]: the semaphore n (a string: the available permit count)
-- KEYS[2]: the channel P(redisson_sc, n)
-- KEYS[3]: the acquisition's latch P(redisson_acquire_latch, n):<request-id>
-- ARGV[1]: how many permits it took (a positive integer)
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: the new permit count (published when positive, as a release does) when the latch
--          was there, which is deleted, so a resend changes nothing; nil when the latch is not
--          there (this node never saw the acquisition, or it was given back already). A key of
--          another type fails with WRONGTYPE and is left untouched.
-- @include integer_count
if redis.call('exists', KEYS[3]) == 0 then
  return false
end
local _, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
redis.call('del', KEYS[3])
return add_count(KEYS[1], ARGV[1], ARGV[2], KEYS[2])
