-- Copies every key of a multi-key object to the same keys of another name in the same hash slot
-- (Redisson's RObject.copy / copyAndReplace).
-- KEYS: the object's n keys, its name first, then the destination's n keys in the same order
-- ARGV[1]: '1' to replace what exists at the destination (COPY ... REPLACE), '0' not to
-- Returns: 1 if at least one key was copied, else 0.
local half = #KEYS / 2
local copied = 0
for i = 1, half do
  local done
  if ARGV[1] == '1' then
    done = redis.call('copy', KEYS[i], KEYS[half + i], 'replace')
  else
    done = redis.call('copy', KEYS[i], KEYS[half + i])
  end
  if done == 1 then
    copied = 1
  end
end
return copied
