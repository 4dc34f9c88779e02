-- Whether every value is an element of the list (Redisson's RList.containsAll).
-- KEYS[1]: the list
-- ARGV: the values' encoded bytes (at least one)
-- Returns: 1 if each value is an element, else 0. O(elements), read in windows of 100; stops as
--          soon as every value was seen.
-- @include list_holds_all
return list_holds_all(KEYS[1], ARGV)
