-- The holds of a re-entrant lock (Redisson's RLock layout): the hash `lock`, field = owner,
-- value = hold count, with a PEXPIRE lease.
-- reenter_hold(lock, owner, lease, reentrant, count): another acquire by `owner`, who holds
-- `lock`: sets the hold count to `count` when given (on a non-re-entrant lock only '1', a hold
-- the client never learnt of, is taken over), else adds one hold; a non-re-entrant lock refuses
-- with -3 and changes nothing. Otherwise the lease is set to `lease` and the answer is nil.
-- acquire_hold(lock, owner, lease, reentrant, count): the acquire: a free lock is taken with one
-- hold, a holder's goes through reenter_hold; nil when acquired, -3 as above, otherwise the
-- lock's PTTL (-1 when a foreign writer left it without expiry).
local function reenter_hold(lock, owner, lease, reentrant, count)
  if count and (reentrant or count == '1') then
    redis.call('hset', lock, owner, count)
  elseif not reentrant then
    return -3
  else
    redis.call('hincrby', lock, owner, 1)
  end
  redis.call('pexpire', lock, lease)
  return nil
end

local function acquire_hold(lock, owner, lease, reentrant, count)
  if redis.call('exists', lock) == 0 then
    redis.call('hincrby', lock, owner, 1)
    redis.call('pexpire', lock, lease)
    return nil
  end
  if redis.call('hexists', lock, owner) == 1 then
    return reenter_hold(lock, owner, lease, reentrant, count)
  end
  return redis.call('pttl', lock)
end
