-- MapCache: read values checking only their time to live (Redisson's RMapCache getWithTTLOnly and
-- getAllWithTTLOnly): the max idle time is neither checked nor moved, nor is the LRU/LFU score.
-- KEYS[1]: the hash n
-- KEYS[2]: redisson__timeout__set:{n}
-- ARGV[1]: now, ms since the epoch
-- ARGV[2...]: the keys' bytes
-- Returns: the value of each key in order; nil for an absent key or one whose time to live is over.
local now = tonumber(ARGV[1])
local values = {}
for i = 2, #ARGV do
  local value = false
  local packed = redis.call('hget', KEYS[1], ARGV[i])
  if packed ~= false then
    local _, bytes = struct.unpack('dLc0', packed)
    local timeout = redis.call('zscore', KEYS[2], ARGV[i])
    if timeout == false or tonumber(timeout) > now then
      value = bytes
    end
  end
  values[i - 1] = value
end
return values
