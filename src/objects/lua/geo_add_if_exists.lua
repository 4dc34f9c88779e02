-- Geo add_if_exists of one member: moves a member that is already there to a new position, and
-- adds nothing (Redisson's RGeo.addIfExists(longitude, latitude, member), the same script).
-- KEYS[1]: the geo set (a sorted set)
-- ARGV[1]: the longitude, as decimal text
-- ARGV[2]: the latitude, as decimal text
-- ARGV[3]: the member's bytes
-- Returns: 1 if the member was there (and now has the new position), else 0. A key of another
--          type fails (WRONGTYPE) before anything changes.
local position = redis.call('geopos', KEYS[1], ARGV[3])
if position[1] ~= false then
  redis.call('geoadd', KEYS[1], ARGV[1], ARGV[2], ARGV[3])
  return 1
end
return 0
