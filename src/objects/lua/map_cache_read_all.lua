-- MapCache read_all_map / read_all_key_set / read_all_values / random_keys / random_entries: the
-- live entries of the whole hash (HGETALL), or of up to `count` distinct fields picked at random
-- (HRANDFIELD), with the expired ones left out (Redisson's RMapCache.readAllMap, readAllKeySet,
-- readAllValues, randomKeys, randomEntries): a random pick that lands on expired entries answers
-- fewer than `count`, as Redisson's does. As in Redisson, reading a live entry with a max idle
-- time moves its idle deadline (and keeps a bounded map's access scores); others are not touched.
-- KEYS[1]: the hash n (field: key bytes; value: struct 'dLc0' of max-idle ms, value bytes)
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: 'keys', 'values' or 'entries': what to answer of each live entry
-- ARGV[3]: absent: every entry; else the most entries to pick at random (HRANDFIELD's count, >= 0)
-- Returns: [key, ...], [value, ...] or [key, value, key, value, ...] of the live entries read.
--          A key of another type fails with WRONGTYPE.
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local what = ARGV[2]
local read
if ARGV[3] == nil then
  read = redis.call('hgetall', KEYS[1])
else
  read = redis.call('hrandfield', KEYS[1], ARGV[3], 'withvalues')
end
local result = {}
for i = 1, #read, 2 do
  local field = read[i]
  local entry = map_cache_live_entry(field, now, read[i + 1])
  if entry ~= nil then
    if entry.has_idle then
      map_cache_read(field, entry, now)
    end
    if what ~= 'values' then
      result[#result + 1] = field
    end
    if what ~= 'keys' then
      result[#result + 1] = entry.value
    end
  end
end
return result
