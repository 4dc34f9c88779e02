-- Sets the bits of one or more values in a Bloom filter (Redisson's RBloomFilter.add), after
-- checking that the config is the one the client computed the bit indexes with.
-- KEYS[1]: the config hash {n}:config
-- KEYS[2]: the bitmap n
-- ARGV[1]: size (m) the indexes were computed with
-- ARGV[2]: hashIterations (k) the indexes were computed with
-- ARGV[3]: indexes per value (k)
-- ARGV[4..]: the bit indexes, k per value, value after value
-- Returns: the number of values that set at least one new bit. A config other than ARGV[1..2]
--          (or none) is the error "Bloom filter config has been changed" and sets nothing.
if redis.call('hget', KEYS[1], 'size') ~= ARGV[1]
    or redis.call('hget', KEYS[1], 'hashIterations') ~= ARGV[2] then
  return redis.error_reply('ERR Bloom filter config has been changed')
end
local per_value = tonumber(ARGV[3])
local added = 0
local new_bits = 0
for i = 4, #ARGV do
  if redis.call('setbit', KEYS[2], ARGV[i], 1) == 0 then
    new_bits = new_bits + 1
  end
  if (i - 3) % per_value == 0 then
    if new_bits > 0 then
      added = added + 1
    end
    new_bits = 0
  end
end
return added
