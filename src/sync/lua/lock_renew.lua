-- Watchdog renewal of many re-entrant locks in one call (batched per node/slot).
-- KEYS: the lock hashes n1..nK
-- ARGV[1]: lease in milliseconds
-- ARGV[1 + i]: the owner field (<client-id>:<owner-id>) that holds KEYS[i]
-- Returns: an array of K integers: 1 = still held by that owner, lease reset to ARGV[1];
--          0 = the owner no longer holds it (expired, deleted, or taken by someone else).
local renewed = {}
for i = 1, #KEYS do
  if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
    redis.call('pexpire', KEYS[i], ARGV[1])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
