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
-- @include bloom_count_values
return bloom_count_values(function(i) return redis.call('setbit', KEYS[2], ARGV[i], 1) end,
                          function(zero_bits) return zero_bits > 0 end)
