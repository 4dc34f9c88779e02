-- Removes every element equal to one of the values (Redisson's RList.removeAll).
-- KEYS[1]: the list
-- ARGV: the values' encoded bytes (at least one)
-- Returns: how many elements were removed.
local removed = 0
local seen = {}
for _, value in ipairs(ARGV) do
  if not seen[value] then
    seen[value] = true
    removed = removed + redis.call('lrem', KEYS[1], 0, value)
  end
end
return removed
