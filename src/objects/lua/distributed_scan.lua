-- Distributed scan: the next page of a scan whose cursor is kept in Redis, so that every client
-- scanning with the same cursor key takes the next page and together they read the collection
-- once (Redisson's distributedIterator of RSet, RScoredSortedSet, RList and RSortedSet).
-- KEYS[1]: the collection: a set, a sorted set or a list
-- KEYS[2]: the cursor key (Redisson's `__redisson_<kind>_cursor_{n}`, or a name the caller
--          chose): the SCAN cursor, or the index of a list's next window; -1 once the scan is
--          over. It lives an hour from the last page taken.
-- ARGV[1]: 'sscan', 'zscan' or 'lrange'
-- ARGV[2]: the page size (the SCAN COUNT, or the window's length)
-- ARGV[3]: sscan and zscan: a MATCH pattern, or '' for none
-- Returns: {next cursor, elements} (a sorted set's members without their scores); the cursor is
--          '0' or '-1' when the scan is over. A key of another type fails with WRONGTYPE before
--          the cursor is written.
local cursor = redis.call('get', KEYS[2])
if cursor == false then
  cursor = '0'
end
if cursor == '-1' then
  return {'0', {}}
end
if ARGV[1] == 'lrange' then
  local last = tonumber(cursor) + tonumber(ARGV[2])
  local page = redis.call('lrange', KEYS[1], cursor, last - 1)
  if last > redis.call('llen', KEYS[1]) then
    last = -1
  end
  redis.call('setex', KEYS[2], 3600, last)
  return {tostring(last), page}
end
local result
if ARGV[3] ~= '' then
  result = redis.call(ARGV[1], KEYS[1], cursor, 'match', ARGV[3], 'count', ARGV[2])
else
  result = redis.call(ARGV[1], KEYS[1], cursor, 'count', ARGV[2])
end
if result[1] ~= '0' then
  redis.call('setex', KEYS[2], 3600, result[1])
else
  redis.call('setex', KEYS[2], 3600, -1)
end
if ARGV[1] == 'sscan' then
  return result
end
local members = {}
for i = 1, #result[2], 2 do
  members[#members + 1] = result[2][i]
end
return {result[1], members}
