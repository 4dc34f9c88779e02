-- The held permits of a permit-expirable semaphore: the count key `semaphore` (available permits)
-- and the sorted set `timeouts` (permit id -> expiry, epoch ms). Needs the integer_count part.
-- permit_expiry(semaphore, timeouts, id): the expiry of the held permit `id`, a number; or nil and
-- the reply to return at once: 0 when there is no such permit, read_count's WRONGTYPE error when
-- the count is not an integer (checked first; nothing is written).
-- reclaim_permit(semaphore, timeouts, id, publish, channel): removes the permit `id` and adds it
-- back to the count, published on `channel` with the `publish` command when positive.
local function permit_expiry(semaphore, timeouts, id)
  local _, refused = read_count(semaphore, 'semaphore')
  if refused then
    return nil, refused
  end
  local expiry = redis.call('zscore', timeouts, id)
  if expiry == false then
    return nil, 0
  end
  return tonumber(expiry)
end

local function reclaim_permit(semaphore, timeouts, id, publish, channel)
  redis.call('zrem', timeouts, id)
  add_count(semaphore, 1, publish, channel)
end
