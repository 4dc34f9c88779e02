-- Sets the counter only if its value is greater (or less) than a threshold (Redisson's
-- RAtomicLong / RAtomicDouble setIfGreater and setIfLess). A missing counter counts as 0.
-- KEYS[1]: the counter (decimal text)
-- ARGV[1]: 'greater' or 'less'
-- ARGV[2]: the threshold, decimal text
-- ARGV[3]: the value to set, decimal text
-- Returns: 1 if set, else 0. A value that is not a number fails (nothing changed).
local text = redis.call('get', KEYS[1])
local current = 0
if text then
  current = tonumber(text)
  if current == nil then
    return redis.error_reply('ERR value is not a number: ' .. KEYS[1])
  end
end
local threshold = tonumber(ARGV[2])
if (ARGV[1] == 'greater' and current > threshold) or (ARGV[1] == 'less' and current < threshold) then
  redis.call('set', KEYS[1], ARGV[3])
  return 1
end
return 0
