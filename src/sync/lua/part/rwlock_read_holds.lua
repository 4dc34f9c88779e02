-- each_read_hold(lock, tagged, visit): calls visit(timeout_key) for every read hold the lock hash
-- `lock` counts (fields other than 'mode' and writers' ':write' fields; hold i of a reader has the
-- timeout key <tagged>:<field>:rwlock_timeout:<i>).
-- longest_read_lease(lock, tagged): the longest PTTL among those timeout keys (0 when none):
-- holds of dead readers have no timeout key any more and count for nothing.
local function each_read_hold(lock, tagged, visit)
  local fields = redis.call('hgetall', lock)
  for f = 1, #fields, 2 do
    local field = fields[f]
    if field ~= 'mode' and string.sub(field, -6) ~= ':write' then
      local prefix = tagged .. ':' .. field .. ':rwlock_timeout:'
      for hold = 1, (tonumber(fields[f + 1]) or 0) do
        visit(prefix .. hold)
      end
    end
  end
end

local function longest_read_lease(lock, tagged)
  local longest = 0
  each_read_hold(lock, tagged, function(key)
    local ttl = redis.call('pttl', key)
    if ttl > longest then
      longest = ttl
    end
  end)
  return longest
end
