-- read_count(key, kind): what the count key `key` (a semaphore's permits, a latch's count) holds:
-- its integer text, or false when absent. A string that is not an integer is refused: the second
-- result is then the WRONGTYPE error reply to return ('WRONGTYPE <kind> <key> does not hold an
-- integer'), and nothing has been written. (A key of another type fails the GET with WRONGTYPE.)
-- present_count(key, kind): read_count's count as a number; or nil and the reply to return at
-- once when there is nothing to count: 0 when `key` is absent, read_count's WRONGTYPE error.
-- add_count(key, delta, publish, channel): INCRBY key delta; a positive new count is published on
-- `channel` with the `publish` command (waiters re-check). Returns the new count.
local function read_count(key, kind)
  local value = redis.call('get', key)
  if value ~= false and not string.match(value, '^-?%d+$') then
    return false,
      redis.error_reply('WRONGTYPE ' .. kind .. ' ' .. key .. ' does not hold an integer')
  end
  return value
end

local function present_count(key, kind)
  local value, refused = read_count(key, kind)
  if refused then
    return nil, refused
  end
  if value == false then
    return nil, 0
  end
  return tonumber(value)
end

local function add_count(key, delta, publish, channel)
  local count = redis.call('incrby', key, delta)
  if count > 0 then
    redis.call(publish, channel, count)
  end
  return count
end
