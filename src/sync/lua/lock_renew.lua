-- Watchdog renewal of many re-entrant locks in one call (batched per node/slot).
-- KEYS: the lock hashes n1..nK
-- ARGV[1]: lease in milliseconds
-- ARGV[1 + i]: the owner field (<client-id>:<owner-id>) that holds KEYS[i]
-- Returns: an array of K integers: 1 = still held by that owner, lease reset to ARGV[1];
--          0 = the owner no longer holds it (expired, deleted, taken by someone else, or the
--          key now holds another type: pcall keeps one bad key from failing the whole batch).
-- @include renew_batch
return renew_each(function(lock, owner)
  if redis.pcall('hexists', lock, owner) ~= 1 then
    return false
  end
  redis.call('pexpire', lock, ARGV[1])
  return true
end)
