-- Writes a Bloom filter's config unless it has one (Redisson's RBloomFilter.tryInit).
-- KEYS[1]: the config hash {n}:config
-- ARGV[1]: size (m, bits)
-- ARGV[2]: hashIterations (k)
-- ARGV[3]: expectedInsertions
-- ARGV[4]: falseProbability (Java's Double.toString text)
-- Returns: 1 if the config was written, 0 if the key already existed (nothing changes).
if redis.call('exists', KEYS[1]) == 1 then
  return 0
end
redis.call('hset', KEYS[1], 'size', ARGV[1], 'hashIterations', ARGV[2],
           'expectedInsertions', ARGV[3], 'falseProbability', ARGV[4])
return 1
