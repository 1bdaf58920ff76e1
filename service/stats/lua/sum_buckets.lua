-- KEYS: the buckets, section by section in turn; ARGV[1]: how many sections. The sums of each
-- section's hashes, field by field, as flat [field, value...] lists, values in %.17g (a double
-- read back exactly; counts are whole numbers, exact up to 2^53).

local sections = tonumber(ARGV[1])
local sums = {}
for s = 1, sections do sums[s] = {} end
for i = 1, #KEYS do
    local sum = sums[((i - 1) % sections) + 1]
    local flat = redis.call('HGETALL', KEYS[i])
    for j = 1, #flat, 2 do
        sum[flat[j]] = (sum[flat[j]] or 0) + tonumber(flat[j + 1])
    end
end
local answer = {}
for s = 1, sections do
    local flat = {}
    for name, value in pairs(sums[s]) do
        flat[#flat + 1] = name
        flat[#flat + 1] = string.format('%.17g', value)
    end
    answer[s] = flat
end
return answer
