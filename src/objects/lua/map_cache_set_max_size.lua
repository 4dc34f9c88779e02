-- MapCache max size: bounds the map (Redisson's RMapCache.setMaxSize / trySetMaxSize). Puts then
-- evict the least recently (LRU) or least often (LFU) used entries beyond it.
-- KEYS[1]: {n}:redisson_options
-- ARGV[1]: the max size (0: unbounded)
-- ARGV[2]: 'LRU' or 'LFU'
-- ARGV[3]: 'set' (always) or 'try' (only if no max size is set yet)
-- Returns: 1 if set, 0 if 'try' found one already.
if ARGV[3] == 'try' and redis.call('hexists', KEYS[1], 'max-size') == 1 then
  return 0
end
redis.call('hset', KEYS[1], 'max-size', ARGV[1], 'mode', ARGV[2])
return 1
