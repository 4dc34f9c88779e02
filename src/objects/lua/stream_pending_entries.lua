-- Stream::pending_range_entries (Redisson's RStream.pendingRange): a consumer group's pending
-- entries with their fields: XPENDING's extended form, then XRANGE id id for each. It only
-- reads: the entries' owners, idle times and delivery counts stay as they were.
-- KEYS[1]: the stream
-- ARGV[1]: the group
-- ARGV[2]: the minimum idle time in ms (XPENDING IDLE), '' for any
-- ARGV[3], ARGV[4]: the range's ends (ids, '-' or '+')
-- ARGV[5]: the count (> 0)
-- ARGV[6] (optional): only this consumer's
-- Returns: [[id, [field, value, ...]], ...] in id order; an entry deleted from the stream since
--          it was delivered (still pending) has no fields. A key of another type fails with
--          WRONGTYPE, a missing stream or group with NOGROUP.
local pending_args = {'xpending', KEYS[1], ARGV[1]}
if ARGV[2] ~= '' then
  table.insert(pending_args, 'IDLE')
  table.insert(pending_args, ARGV[2])
end
table.insert(pending_args, ARGV[3])
table.insert(pending_args, ARGV[4])
table.insert(pending_args, ARGV[5])
if ARGV[6] ~= nil then
  table.insert(pending_args, ARGV[6])
end
local pending = redis.call(unpack(pending_args))
local result = {}
for i, entry in ipairs(pending) do
  local found = redis.call('xrange', KEYS[1], entry[1], entry[1])
  local fields = {}
  if #found > 0 then
    fields = found[1][2]
  end
  result[i] = {entry[1], fields}
end
return result
