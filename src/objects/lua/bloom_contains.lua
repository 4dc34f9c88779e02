-- Counts the values whose bits are all set in a Bloom filter (Redisson's
-- RBloomFilter.contains), after checking that the config is the one the client computed the
-- bit indexes with.
-- KEYS[1]: the config hash {n}:config
-- KEYS[2]: the bitmap n
-- ARGV[1]: size (m) the indexes were computed with
-- ARGV[2]: hashIterations (k) the indexes were computed with
-- ARGV[3]: indexes per value (k)
-- ARGV[4..]: the bit indexes, k per value, value after value
-- Returns: the number of values that may be in the filter (every bit set). A config other than
--          ARGV[1..2] (or none) is the error "Bloom filter config has been changed".
-- @include bloom_count_values
return bloom_count_values(function(i) return redis.call('getbit', KEYS[2], ARGV[i]) end,
                          function(zero_bits) return zero_bits == 0 end)
