-- Renames every key of a multi-key object to the same keys of a new name in the same hash slot,
-- but only if none of the new keys exists (Redisson's RObject.renamenx).
-- KEYS: the object's n keys, its name first, then the new name's n keys in the same order
-- Returns: 1 if renamed; 0 if a key of the new name exists (nothing changed). A missing object
--          is an error, as RENAMENX's.
local half = #KEYS / 2
if redis.call('exists', KEYS[1]) == 0 then
  return redis.error_reply('ERR no such key')
end
for i = half + 1, #KEYS do
  if redis.call('exists', KEYS[i]) == 1 then
    return 0
  end
end
for i = 1, half do
  if redis.call('exists', KEYS[i]) == 1 then
    redis.call('renamenx', KEYS[i], KEYS[half + i])
  end
end
return 1
