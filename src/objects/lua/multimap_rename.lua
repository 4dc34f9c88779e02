-- Multimap rename: renames the index and every values key it lists (Redisson's
-- RMultimap.rename).
-- KEYS[1]: the index hash n
-- KEYS[2]: the new name
-- KEYS[3]: the multimap cache layout's expiry zset (renamed when it exists)
-- KEYS[4]: that zset's name for the new name
-- ARGV[1]: the values keys' prefix, suffixName(n, '')
-- ARGV[2]: the new prefix, suffixName(new name, '')
-- Returns: nil. The index must exist ("ERR no such key" otherwise, nothing renamed); a key of
--          another type fails with WRONGTYPE and nothing is renamed.
-- @include hash_scan
-- @include multimap_index
local failure = multimap_check_index()
if failure then
  return failure
end
if redis.call('exists', KEYS[1]) == 0 then
  return redis.error_reply('ERR no such key')
end
-- Renaming the values keys leaves the index as it is until the end, so the scan sees every key
-- once.
multimap_each_suffix(function(suffix)
  if redis.call('exists', ARGV[1] .. suffix) == 1 then
    redis.call('rename', ARGV[1] .. suffix, ARGV[2] .. suffix)
  end
end)
if redis.call('exists', KEYS[3]) == 1 then
  redis.call('rename', KEYS[3], KEYS[4])
end
redis.call('rename', KEYS[1], KEYS[2])
return nil
