-- LiveObjectService: moves a live object's id in one field's index (Redisson's @RIndex, a
-- SetMultimap: the hash maps each field value to the base64 hash of its bytes, and the set
-- `<index>:<base64>` holds the ids having that value) from its old value to its new one.
-- KEYS[1]: the index hash redisson_live_object_index:{<class>}:<field>
-- KEYS[2]: the new value's set <index>:<base64 of the new value> (any key when ARGV[4] is '')
-- ARGV[1]: the id's bytes
-- ARGV[2]: the old value's bytes, or '' when the object had none
-- ARGV[3]: '1' when there is an old value
-- ARGV[4]: the new value's bytes, or '' with ARGV[5] '0' (the object loses the field: delete)
-- ARGV[5]: '1' when there is a new value
-- ARGV[6]: the new value's base64 hash
-- Returns: 1. A key of another type fails with WRONGTYPE before anything is written.
redis.call('hlen', KEYS[1])
if ARGV[5] == '1' then
  redis.call('scard', KEYS[2])
end
if ARGV[3] == '1' then
  local b64 = redis.call('hget', KEYS[1], ARGV[2])
  if b64 ~= false then
    local set = KEYS[1] .. ':' .. b64
    redis.call('srem', set, ARGV[1])
    if redis.call('scard', set) == 0 then
      redis.call('hdel', KEYS[1], ARGV[2])
    end
  end
end
if ARGV[5] == '1' then
  redis.call('hsetnx', KEYS[1], ARGV[4], ARGV[6])
  redis.call('sadd', KEYS[2], ARGV[1])
end
return 1
