-- Gives back the permits of one acquisition whose caller cancelled before it heard of the grant
-- (ours: Redisson has no such step). Removes exactly that entry and returns its permits to the
-- value, never above the rate; the keys' TTLs are left as they are.
-- KEYS[1]: the config hash n
-- KEYS[2]: {n}:value (overall)
-- KEYS[3]: {n}:value:<client id> (per client)
-- KEYS[4]: {n}:permits (overall)
-- KEYS[5]: {n}:permits:<client id> (per client)
-- ARGV[1]: the acquisition's 16-byte tag
-- ARGV[2]: its permits
-- Returns: 1 if the entry was there and its permits went back, else 0.
-- @include rate_limiter_state
local rate, _, value_key, permits_key = rate_limiter_state()
if rate == nil then
  return 0
end
local entry = struct.pack('Bc0I', string.len(ARGV[1]), ARGV[1], tonumber(ARGV[2]))
if redis.call('zrem', permits_key, entry) == 0 then
  return 0
end
local value = redis.call('get', value_key)
if value ~= false then
  local back = math.min(tonumber(ARGV[2]), tonumber(rate) - tonumber(value))
  if back > 0 then
    redis.call('incrby', value_key, back)
  end
end
return 1
