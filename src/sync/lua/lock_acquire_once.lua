-- Acquire a non-re-entrant lock (Lock layout, but a holder may not take it twice).
-- KEYS[1]: the lock hash n
-- ARGV[1]: lease in milliseconds
-- ARGV[2]: owner field <client-id>:<owner-id>
-- ARGV[3]: optional, "1" when the client knows this owner holds nothing but the server may
--          still count a hold it never learnt of (a lost acquire reply): such a hold is taken
--          over instead of refused (watchdog/hold_ledger.hpp)
-- Returns: nil when acquired (field set to 1, lease set);
--          -3 when ARGV[2] already holds it (the caller reports an error; nothing changes);
--          otherwise the lock's PTTL in ms (-1 when it has no expiry).
if redis.call('exists', KEYS[1]) == 0 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  if ARGV[3] == '1' then
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
  end
  return -3
end
return redis.call('pttl', KEYS[1])
