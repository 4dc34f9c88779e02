-- MapCache get_all: the live values of several keys (Redisson's RMapCache.getAll). Reading an
-- entry with a max idle time moves its idle deadline.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2..]: the keys' bytes
-- Returns: one element per key, in order: its value's bytes, or nil when absent or expired.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local values = {}
for i = 2, #ARGV do
  local entry = map_cache_live_entry(ARGV[i], now)
  if entry == nil then
    values[i - 1] = false
  else
    map_cache_read(ARGV[i], entry, now)
    values[i - 1] = entry.value
  end
end
return values
