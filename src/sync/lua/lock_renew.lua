-- Watchdog renewal of many re-entrant locks in one call (batched per node/slot).
-- KEYS: the lock hashes n1..nK
-- ARGV[1]: lease in milliseconds
-- ARGV[1 + i]: the owner field (<client-id>:<owner-id>) that holds KEYS[i]
-- Returns: an array of K integers: 1 = still held by that owner, lease reset to ARGV[1];
--          0 = the owner no longer holds it (expired, deleted, taken by someone else, or the
--          key now holds another type: pcall keeps one bad key from failing the whole batch).
local renewed = {}
for i = 1, #KEYS do
  local held = redis.pcall('hexists', KEYS[i], ARGV[i + 1])
  if held == 1 then
    redis.call('pexpire', KEYS[i], ARGV[1])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
