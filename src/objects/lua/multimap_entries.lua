-- Multimap entries: every key with each of its values (Redisson's RSetMultimap/RListMultimap
-- entries() and values() read whole), reading the index in HSCAN pages.
-- KEYS[1]: the index hash n
-- ARGV[1]: 'set' or 'list'
-- ARGV[2]: the values keys' prefix, suffixName(n, '')
-- Returns: a flat array [key bytes, value bytes, key bytes, value bytes, ...], a list's values
--          in order. A key of another type fails with WRONGTYPE.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
local entries = {}
hash_find(KEYS[1], 500, function(key, suffix)
  for _, value in ipairs(multimap_members(ARGV[1], ARGV[2] .. suffix)) do
    table.insert(entries, key)
    table.insert(entries, value)
  end
  return false
end)
return entries
