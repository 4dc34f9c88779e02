-- Whether every value is an element of the list (Redisson's RList.containsAll).
-- KEYS[1]: the list
-- ARGV: the values' encoded bytes (at least one)
-- Returns: 1 if each value is an element, else 0.
local wanted = {}
local missing = 0
for _, value in ipairs(ARGV) do
  if not wanted[value] then
    wanted[value] = true
    missing = missing + 1
  end
end
for _, element in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
  if wanted[element] then
    wanted[element] = nil
    missing = missing - 1
    if missing == 0 then
      return 1
    end
  end
end
return 0
