-- Map containsValue (Redisson's RMap.containsValue): compares every value's bytes on the server,
-- in pages of HSCAN so that a large map is not copied into one reply. Runs to the end of the map
-- when the value is absent: O(size) on the server.
-- KEYS[1]: the hash n
-- ARGV[1]: the value's bytes
-- Returns: 1 if some entry holds ARGV[1], else 0.
-- @include hash_scan
local found = hash_find(KEYS[1], 100, function(_, value)
  return value == ARGV[1]
end)
return found and 1 or 0
