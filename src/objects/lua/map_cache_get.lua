-- MapCache get: reads an entry that has not expired (Redisson's RMapCache.get/containsKey; and
-- value_size). Reading an entry with a max idle time moves its idle deadline to now + max idle;
-- 'length' does not count as a read (Redisson's valueSize is an HSTRLEN, which touches nothing).
-- KEYS[1]: the hash n (field: key bytes; value: struct 'dLc0' of max-idle ms, value bytes)
-- KEYS[2]: redisson__timeout__set:{n}
-- KEYS[3]: redisson__idle__set:{n}
-- KEYS[4]: redisson__map_cache__last_access__set:{n}
-- KEYS[5]: {n}:redisson_options
-- ARGV[1]: now, ms since the epoch
-- ARGV[2]: the key's bytes
-- ARGV[3]: 'value' (answer the value), 'exists' (answer 1/0) or 'length' (answer the length of
--          the value's bytes)
-- Returns: the value's bytes, or nil when absent or expired ('exists': 1 or 0; 'length': the
--          length, 0 when absent or expired).
-- @include map_cache_entry
local now = tonumber(ARGV[1])
local field = ARGV[2]
local entry = map_cache_live_entry(field, now)
if entry == nil then
  if ARGV[3] == 'exists' or ARGV[3] == 'length' then
    return 0
  end
  return nil
end
if ARGV[3] == 'length' then
  return string.len(entry.value)
end
map_cache_read(field, entry, now)
if ARGV[3] == 'exists' then
  return 1
end
return entry.value
