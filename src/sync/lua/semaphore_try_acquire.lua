-- Take permits from a semaphore if enough are available (Redisson's RSemaphore layout); safe
-- to retry with the same request id.
-- KEYS[1]: the semaphore n (a string: the available permit count; absent means 0)
-- KEYS[2]: the acquire latch P(redisson_acquire_latch, n):<request-id>
-- ARGV[1]: how many permits to take (a positive integer)
-- ARGV[2]: latch lifetime in ms (covers every retry of this attempt)
-- ARGV[3]: "1" on the first send of this request id, whose latch cannot exist yet (the read
--          is skipped); anything else, or absent, on a retry
-- Returns: 1 when taken (n decremented by ARGV[1]), or when a retry finds that its first send
--          took them; 0 when fewer are available (nothing changes). A key of another type, or a
--          string that is not an integer, fails with WRONGTYPE and is left untouched.
-- Java Redisson's acquire is the GET + DECRBY alone; the latch is ours: without it, an acquire
-- whose reply was lost (a broken connection) may have taken permits nobody knows of, and a
-- permit has no lease to bring it back. Java clients never read it; it expires by itself.
if ARGV[3] ~= '1' and redis.call('get', KEYS[2]) ~= false then
  return 1
end
-- @include integer_count
local value, refused = read_count(KEYS[1], 'semaphore')
if refused then
  return refused
end
if value == false then
  return 0
end
if tonumber(value) >= tonumber(ARGV[1]) then
  redis.call('decrby', KEYS[1], ARGV[1])
  redis.call('set', KEYS[2], 1, 'px', ARGV[2])
  return 1
end
return 0
