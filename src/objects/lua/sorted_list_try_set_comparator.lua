-- Sorted set try set comparator: names the comparator only while the set is empty (Redisson's
-- RSortedSet.trySetComparator).
-- KEYS[1]: the list n
-- KEYS[2]: the comparator key redisson_sortedset_comparator:{n}
-- ARGV[1]: the comparator's name ("<class>:<signature>" for Java)
-- Returns: 1 when it was set, 0 when the set has elements (nothing changes). A list key of
--          another type fails with WRONGTYPE.
if redis.call('llen', KEYS[1]) == 0 then
  redis.call('set', KEYS[2], ARGV[1])
  return 1
end
return 0
