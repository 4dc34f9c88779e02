-- Adds every value only if none of them is a member yet (Redisson's RSet.tryAdd).
-- KEYS[1]: the set
-- ARGV: the values' encoded bytes
-- Returns: 1 if they were added; 0 if one was a member already (nothing changed).
for _, value in ipairs(ARGV) do
  if redis.call('sismember', KEYS[1], value) == 1 then
    return 0
  end
end
for i = 1, #ARGV, 5000 do
  redis.call('sadd', KEYS[1], unpack(ARGV, i, math.min(i + 4999, #ARGV)))
end
return 1
