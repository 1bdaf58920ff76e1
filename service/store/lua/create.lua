-- Stores a new game's header unless its id is taken: the check and the write are one step.
-- KEYS[1]  header
-- ARGV     the header's fields and values, in pairs

if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
