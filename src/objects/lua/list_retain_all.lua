-- Keeps only the elements equal to one of the values, in their order (Redisson's
-- RList.retainAll). An empty list of values is not sent: the caller deletes the list.
-- KEYS[1]: the list
-- ARGV: the values' encoded bytes (at least one)
-- Returns: 1 if an element was removed, else 0.
local keep = {}
for _, value in ipairs(ARGV) do
  keep[value] = true
end
local dropped = {}
local changed = 0
for _, element in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
  if not keep[element] and not dropped[element] then
    dropped[element] = true
    redis.call('lrem', KEYS[1], 0, element)
    changed = 1
  end
end
return changed
