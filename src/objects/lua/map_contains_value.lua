-- Map containsValue (Redisson's RMap.containsValue): compares every value's bytes on the server,
-- in pages of HSCAN so that a large map is not copied into one reply. Runs to the end of the map
-- when the value is absent: O(size) on the server.
-- KEYS[1]: the hash n
-- ARGV[1]: the value's bytes
-- Returns: 1 if some entry holds ARGV[1], else 0.
local cursor = '0'
repeat
  local page = redis.call('hscan', KEYS[1], cursor, 'count', 100)
  cursor = page[1]
  local entries = page[2]
  for i = 2, #entries, 2 do
    if entries[i] == ARGV[1] then
      return 1
    end
  end
until cursor == '0'
return 0
