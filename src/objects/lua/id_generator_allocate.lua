-- IdGenerator: takes the next block of ids (Redisson's RIdGenerator, same keys and effects): a
-- missing block size becomes 5000, a missing next id starts the ids at 1. Both keys are read
-- and checked before anything is written.
-- KEYS[1]: the next id n (a string: ASCII decimal)
-- KEYS[2]: the block size {n}:allocation (a string: ASCII decimal)
-- Returns: {first id of the block, block size}: the caller hands out first .. first+size-1. A key
--          of another type fails with WRONGTYPE, text that is not an integer with an ERR; both
--          before anything changes.
local value = redis.call('get', KEYS[1])
local allocation = redis.call('get', KEYS[2])
if (value ~= false and tonumber(value) == nil) or
    (allocation ~= false and tonumber(allocation) == nil) then
  return redis.error_reply('ERR the next id and the block size must be integers')
end
if allocation == false then
  allocation = 5000
  redis.call('set', KEYS[2], allocation)
end
if value == false then
  redis.call('incr', KEYS[1])
  value = 1
end
redis.call('incrby', KEYS[1], allocation)
return {value, allocation}
