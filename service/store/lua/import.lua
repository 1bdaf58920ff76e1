-- Stores a whole imported record into the game just created for it. A script, not MULTI, so that
-- on a cluster its reply waits for a replica like an append's.
-- KEYS[1]  header
-- KEYS[2]  events
-- ARGV[1]  how many events follow (N)
-- ARGV[2 .. 1 + 3N]  each event as body, at, hash, in order
-- the rest of ARGV   the header's fields, as field, value pairs

local count = tonumber(ARGV[1])
for seq = 1, count do
    local at = 2 + (seq - 1) * 3
    redis.call('XADD', KEYS[2], '0-' .. seq, 'body', ARGV[at], 'at', ARGV[at + 1],
               'hash', ARGV[at + 2])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2 + count * 3))
return count
