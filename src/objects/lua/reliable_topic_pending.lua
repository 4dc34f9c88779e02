-- Reliable topic: the entries delivered to a subscriber and not acknowledged, to deliver again
-- (Redisson's pendingRange script). Unlike Redisson's it acknowledges a pending id whose entry
-- is gone (deleted or trimmed): there is nothing left to deliver, and it would stay pending.
-- KEYS[1]: the stream n
-- ARGV[1]: the subscriber id (its group; the consumer is always `consumer`)
-- ARGV[2]: at most this many entries
-- Returns: the entries, oldest first, as XRANGE gives them: {{id, {field, value, ...}}, ...}.
--          A missing group fails with NOGROUP.
local pending = redis.call('xpending', KEYS[1], ARGV[1], '-', '+', tonumber(ARGV[2]))
local result = {}
for _, info in ipairs(pending) do
  local entry = redis.call('xrange', KEYS[1], info[1], info[1])
  if #entry == 0 then
    redis.call('xack', KEYS[1], ARGV[1], info[1])
  else
    table.insert(result, entry[1])
  end
end
return result
