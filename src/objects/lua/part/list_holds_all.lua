-- list_holds_all(key, values, unframe): 1 if each of `values` (byte strings) is an element of the
-- list `key`, else 0. The list is read in windows of 100 so that the script's memory stays small
-- on a long list, and the read stops as soon as every value was seen. `unframe`, when given,
-- turns an element into the bytes compared (an element stored inside a frame).
local function list_holds_all(key, values, unframe)
  local missing = {}
  local count = 0
  for _, value in ipairs(values) do
    if not missing[value] then
      missing[value] = true
      count = count + 1
    end
  end
  local length = redis.call('llen', key)
  for first = 0, length - 1, 100 do
    for _, element in ipairs(redis.call('lrange', key, first, first + 99)) do
      if unframe then
        element = unframe(element)
      end
      if missing[element] then
        missing[element] = nil
        count = count - 1
        if count == 0 then
          return 1
        end
      end
    end
  end
  return 0
end
