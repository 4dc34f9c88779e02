-- Delete a lock whoever holds it and wake its waiters.
-- KEYS[1]: the lock hash n
-- KEYS[2]: the release channel P(redisson_lock__channel, n)
-- ARGV[1]: the release message ("0")
-- ARGV[2]: the publish command ("publish" or "spublish")
-- Returns: 1 if a lock was deleted (and the message published), 0 if there was none.
if redis.call('del', KEYS[1]) == 1 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
