-- Stores an imported record whole into a new game, unless its id is taken: the header, its
-- events and the header's ending in one step (one round trip, and never a game created
-- without its events). A script, not MULTI, so that on a
-- cluster its reply waits for a replica like an append's.
-- KEYS[1]  header
-- KEYS[2]  events
-- ARGV[1]  how many of the header's fields follow, as field, value pairs (F)
-- ARGV[2]  how many events follow them (N)
-- ARGV[3 .. 2 + 2F]  the new game's header, as field, value pairs
-- then 3N: each event as body, at, hash, in order
-- the rest of ARGV   the header's ending (version, head, status...), as field, value pairs

if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fields = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], unpack(ARGV, 3, 2 + 2 * fields))
local first = 3 + 2 * fields
for seq = 1, count do
    local at = first + (seq - 1) * 3
    redis.call('XADD', KEYS[2], '0-' .. seq, 'body', ARGV[at], 'at', ARGV[at + 1],
               'hash', ARGV[at + 2])
end
redis.call('HSET', KEYS[1], unpack(ARGV, first + count * 3))
return 1
