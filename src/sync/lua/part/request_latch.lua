-- earlier_result(latch, first): what the first attempt of a retried request answered, kept in its
-- request-id latch `latch` (a number), or nil when no attempt has run yet. `first` = '1' says this
-- is the request's first attempt, whose latch cannot exist yet: the read is skipped.
local function earlier_result(latch, first)
  if first ~= '1' then
    local earlier = redis.call('get', latch)
    if earlier ~= false then
      return tonumber(earlier)
    end
  end
  return nil
end
