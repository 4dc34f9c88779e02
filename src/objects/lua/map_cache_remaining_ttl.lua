-- MapCache remaining time to live of one entry (Redisson's RMapCache.remainTimeToLive(key)).
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- Returns: ms until the entry expires (the earlier of its timeout and idle deadlines); -1 when
--          it never expires; -2 when it is absent or has expired.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local entry = map_cache_live_entry(ARGV[2], now)
if entry == nil then
  return -2
end
if entry.expires_at == 92233720368547758 then
  return -1
end
return math.floor(entry.expires_at - now)
