-- Appends one event to a tournament's log if the log holds exactly the events its writer read:
-- two organisers pairing the same round at once never both succeed.
-- KEYS[1]  the log
-- ARGV[1]  the number of events the writer read
-- ARGV[2]  the event's JSON
-- Returns the log's new length, or 0 when it held another number of events.

local length = redis.call('LLEN', KEYS[1])
if length == 0 or length ~= tonumber(ARGV[1]) then return 0 end
return redis.call('RPUSH', KEYS[1], ARGV[2])
