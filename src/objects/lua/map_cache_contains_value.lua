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
local now = tonumber(ARGV[1])
local cursor = '0'
repeat
  local page = redis.call('hscan', KEYS[1], cursor, 'count', 100)
  cursor = page[1]
  local entries = page[2]
  for i = 1, #entries, 2 do
    local _, value = struct.unpack('dLc0', entries[i + 1])
    if value == ARGV[2] then
      local entry = map_cache_entry(entries[i])
      if entry ~= nil and entry.expires_at > now then
        if entry.has_idle then
          redis.call('zadd', KEYS[3], now + entry.max_idle, entries[i])
        end
        map_cache_touch(entries[i], now)
        return 1
      end
    end
  end
until cursor == '0'
return 0
