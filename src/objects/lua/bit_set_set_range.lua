-- BitSet set_range / clear_range (Java's BitSet.set(from, to) / clear(from, to)): the bits
-- [from, to) set to one value in one step: the partial bytes at either end with BITFIELD, the
-- whole bytes between them with one SETRANGE.
-- KEYS[1]: the bitmap n (a string; bit i is bit 7 - i % 8 of byte i / 8)
-- ARGV[1]: from, the first bit
-- ARGV[2]: to, one past the last bit (at least from)
-- ARGV[3]: "1" to set the bits, "0" to clear them
-- Returns: 0. The bitmap grows with zeros to cover the range, as SETBIT grows it. A key of
--          another type fails with WRONGTYPE before anything changes.
redis.call('strlen', KEYS[1])
local from = tonumber(ARGV[1])
local to = tonumber(ARGV[2])
local set = ARGV[3] == '1'
local function bits(offset, count)
  redis.call('bitfield', KEYS[1], 'set', 'u' .. count, offset, set and (2 ^ count - 1) or 0)
end
local head_end = math.min(to, math.ceil(from / 8) * 8)
if from < head_end then
  bits(from, head_end - from)
end
local tail_start = math.max(head_end, math.floor(to / 8) * 8)
if head_end < tail_start then
  local fill = set and '\255' or '\0'
  redis.call('setrange', KEYS[1], head_end / 8, string.rep(fill, (tail_start - head_end) / 8))
end
if tail_start < to then
  bits(tail_start, to - tail_start)
end
return 0
