-- What bloom_add and bloom_contains share: the check that the config (KEYS[1]) is the one the
-- client computed the bit indexes with (ARGV[1] size, ARGV[2] hashIterations), then a walk over
-- the indexes (ARGV[4..], ARGV[3] per value). `bit_at(i)` touches bit ARGV[i] of KEYS[2] and
-- answers its previous value; the result counts the values for which `counts(zero_bits)` holds,
-- zero_bits being how many of the value's bits answered 0.
local function bloom_count_values(bit_at, counts)
  if redis.call('hget', KEYS[1], 'size') ~= ARGV[1]
      or redis.call('hget', KEYS[1], 'hashIterations') ~= ARGV[2] then
    return redis.error_reply('ERR Bloom filter config has been changed')
  end
  local per_value = tonumber(ARGV[3])
  local total = 0
  local zero_bits = 0
  for i = 4, #ARGV do
    if bit_at(i) == 0 then
      zero_bits = zero_bits + 1
    end
    if (i - 3) % per_value == 0 then
      if counts(zero_bits) then
        total = total + 1
      end
      zero_bits = 0
    end
  end
  return total
end
