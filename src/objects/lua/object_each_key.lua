-- One command on every key of a multi-key object at once (an IdGenerator's allocation key, a
-- BloomFilter's config, a MapCache's timeout sets), as Redisson's RExpirable and RObject do for
-- expire, expireAt, clearExpire, the expireIf* forms and move.
-- KEYS: the object's keys, its name first (all in one hash slot)
-- ARGV[1]: the command: 'pexpire', 'pexpireat', 'persist' or 'move'
-- ARGV[2..]: its arguments after the key (milliseconds and an optional NX/XX/GT/LT; a database)
-- Returns: 1 if the command took effect on at least one key, else 0.
local result = 0
for i = 1, #KEYS do
  if redis.call(ARGV[1], KEYS[i], unpack(ARGV, 2)) == 1 then
    result = 1
  end
end
return result
