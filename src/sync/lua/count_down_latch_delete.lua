-- Delete a count-down latch (which opens it), refusing to touch a key of another type.
-- KEYS[1]: the latch n
-- KEYS[2]: the channel redisson_countdownlatch__channel__{n}
-- ARGV[1]: the publish command ("publish" or "spublish")
-- Returns: 1 when n was deleted ("1" is published, as Redisson does), 0 when it did not exist.
-- A key that is not a string fails with WRONGTYPE and is left untouched.
local kind = redis.call('type', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'string' then
  return redis.error_reply('WRONGTYPE latch ' .. KEYS[1] .. ' is a ' .. kind)
end
if redis.call('del', KEYS[1]) == 1 then
  redis.call(ARGV[1], KEYS[2], '1')
  return 1
end
return 0
