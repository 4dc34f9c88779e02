-- BitSet length (Java's BitSet.length()): the highest set bit's index + 1. Scans back from the
-- end: BITCOUNT skips zero chunks, the bytes of the last non-zero chunk are read.
-- KEYS[1]: the bitmap n (a string; bit i is bit 7 - i % 8 of byte i / 8)
-- Returns: the highest set bit's index + 1; 0 when no bit is set or the key does not exist. A
--          key of another type fails with WRONGTYPE.
local chunk = 65536
local last = redis.call('strlen', KEYS[1]) - 1
while last >= 0 do
  local first = math.max(0, last - chunk + 1)
  if redis.call('bitcount', KEYS[1], first, last) > 0 then
    local bytes = redis.call('getrange', KEYS[1], first, last)
    for i = #bytes, 1, -1 do
      local byte = string.byte(bytes, i)
      if byte ~= 0 then
        local bit = 7
        while byte % 2 == 0 do
          byte = byte / 2
          bit = bit - 1
        end
        return (first + i - 1) * 8 + bit + 1
      end
    end
  end
  last = first - 1
end
return 0
