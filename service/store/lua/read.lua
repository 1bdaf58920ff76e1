-- Reads a game's header and its stream's length in one step: a header whose version disagrees with
-- its stream is then seen as it is (between two reads, an append would seem one). A key of another
-- type is answered, not raised, so that the damage is named: {'wrongtype', which, header}.
-- KEYS[1]  header
-- KEYS[2]  events
-- Replies {'ok', the stream's length, the header's fields and values}.

local header = redis.pcall('HGETALL', KEYS[1])
if type(header) == 'table' and header.err then return {'wrongtype', 'header', {}} end
local length = redis.pcall('XLEN', KEYS[2])
if type(length) == 'table' and length.err then return {'wrongtype', 'stream', header} end
return {'ok', length, header}
