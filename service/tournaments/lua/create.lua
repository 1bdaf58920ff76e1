-- Starts a tournament's log with its first event unless the id is taken: one step.
-- KEYS[1]  the log (a list of the events' JSON)
-- ARGV[1]  the "created" event

if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 1
