-- MapCache contains_value: whether a live entry holds the value (Redisson's
-- RMapCache.containsValue), the hash read in pages of HSCAN; O(size) on the server when the
-- value is absent. The entry found has its idle deadline moved, as a read.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the value's bytes
-- Returns: 1 if a live entry holds ARGV[2], else 0.
-- @include map_cache_entry
-- @include hash_scan
local now = tonumber(ARGV[1])
local found = hash_find(KEYS[1], 100, function(field, packed)
  local _, value = struct.unpack('dLc0', packed)
  if value ~= ARGV[2] then
    return false
  end
  local entry = map_cache_live_entry(field, now)
  if entry == nil then
    return false
  end
  map_cache_read(field, entry, now)
  return true
end)
return found and 1 or 0
