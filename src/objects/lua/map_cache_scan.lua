-- MapCache entries(): one HSCAN page of the hash with the expired entries left out and each
-- value unpacked (Redisson's RMapCache iterator). Reading does not move idle deadlines.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the cursor
-- ARGV[3]: the page's COUNT
-- Returns: [next cursor, [key, value, key, value...]] of the live entries of the page (maybe
--          none while the cursor is not '0').
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local page = redis.call('hscan', KEYS[1], ARGV[2], 'count', ARGV[3])
local live = {}
local entries = page[2]
for i = 1, #entries, 2 do
  local entry = map_cache_live_entry(entries[i], now)
  if entry ~= nil then
    live[#live + 1] = entries[i]
    live[#live + 1] = entry.value
  end
end
return {page[1], live}
