-- IdGenerator try_init (Redisson's RIdGenerator.tryInit): the next id and the block size, each
-- set only if absent.
-- KEYS[1]: the next id n (a string: ASCII decimal)
-- KEYS[2]: the block size {n}:allocation (a string: ASCII decimal)
-- ARGV[1]: the first id
-- ARGV[2]: the block size
-- Returns: 1 if the block size was set (the generator had not been initialised), else 0.
redis.call('setnx', KEYS[1], ARGV[1])
return redis.call('setnx', KEYS[2], ARGV[2])
