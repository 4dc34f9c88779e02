-- Keeps only the members that are among the values (Redisson's RSet.retainAll: the values go to
-- a temporary set, then SINTERSTORE). An empty list of values is not sent: the caller deletes.
-- KEYS[1]: the set
-- KEYS[2]: the temporary set suffixName(set, 'redisson_temp'), deleted again
-- ARGV: the values' encoded bytes
-- Returns: 1 if a member was removed, else 0.
for i = 1, #ARGV, 5000 do
  redis.call('sadd', KEYS[2], unpack(ARGV, i, math.min(i + 4999, #ARGV)))
end
local before = redis.call('scard', KEYS[1])
local after = redis.call('sinterstore', KEYS[1], KEYS[1], KEYS[2])
redis.call('del', KEYS[2])
if after ~= before then
  return 1
end
return 0
