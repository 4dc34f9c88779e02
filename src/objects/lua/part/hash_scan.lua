-- hash_find(key, page_size, found): walks the hash `key` in HSCAN pages of about `page_size`
-- entries (never one HGETALL reply, so a large hash is not copied at once), calling
-- found(field, value) for each entry until one answers true. Returns whether one did; when none
-- does, the walk runs to the end of the hash: O(size) on the server.
local function hash_find(key, page_size, found)
  local cursor = '0'
  repeat
    local page = redis.call('hscan', key, cursor, 'count', page_size)
    cursor = page[1]
    local entries = page[2]
    for i = 1, #entries, 2 do
      if found(entries[i], entries[i + 1]) then
        return true
      end
    end
  until cursor == '0'
  return false
end
