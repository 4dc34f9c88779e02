-- Sets, moves or removes the time to live of every key of a multi-key object at once (an
-- IdGenerator's allocation key, a BloomFilter's config), as Redisson's RExpirable does.
-- KEYS: the object's keys, its name first (all in one hash slot)
-- ARGV[1]: "pexpire", "pexpireat" or "persist"
-- ARGV[2]: milliseconds (a duration for pexpire, epoch ms for pexpireat; unused by persist)
-- Returns: 1 if the command took effect on at least one key, else 0.
local result = 0
for i = 1, #KEYS do
  local done
  if ARGV[1] == 'persist' then
    done = redis.call('persist', KEYS[i])
  else
    done = redis.call(ARGV[1], KEYS[i], ARGV[2])
  end
  if done == 1 then
    result = 1
  end
end
return result
