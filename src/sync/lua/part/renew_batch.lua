-- renew_each(renew): the watchdog's batched renewal, one entry per key: renew(KEYS[i], ARGV[i + 1])
-- renews KEYS[i] for the owner field ARGV[i + 1] and answers whether that owner still holds it.
-- Returns the array of those answers, 1 (still held) or 0 (lost), in the order of KEYS.
local function renew_each(renew)
  local renewed = {}
  for i = 1, #KEYS do
    if renew(KEYS[i], ARGV[i + 1]) then
      renewed[i] = 1
    else
      renewed[i] = 0
    end
  end
  return renewed
end
