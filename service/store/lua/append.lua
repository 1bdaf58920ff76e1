-- Appends one event if, and only if, the game is active at the expected version and head. The
-- checks, the XADD, the header update and the idempotency record happen in one step, so two
-- writers can never both append at one version, a retried key can never append twice, and an event
-- is never chained to a head the store does not have (one it lost in a crash, which the appending
-- process still remembers): the head the event's hash was computed from must be the header's.
-- The writer's token must still be the header's, checked before anything, a replayed key
-- included: a seat's link replaced (in any process) refuses its old token at once, though the
-- appending process validated the move on a snapshot that still holds it.
-- A replayed key renews its record's lifetime: a write of its own, so that a replica confirming
-- it (service.store.connection.acknowledged_writes) confirms the recorded append too, which came
-- before it.
--
-- KEYS[1]  header
-- KEYS[2]  events
-- KEYS[3]  the idempotency record's key, for a keyed append (none otherwise)
-- ARGV[1]  the expected version
-- ARGV[2]  the body (canonical JSON)
-- ARGV[3]  at
-- ARGV[4]  hash
-- ARGV[5]  the expected head hash
-- ARGV[6]  the writer: 'recorder', or the seat's index
-- ARGV[7]  the SHA-256 of the writer's token
-- ARGV[8]  the result of a move that ends the game, else ''
-- ARGV[9]  the change of status: '' for none, 'abandon', or 'reopen' (a retraction of a finished
--          game's last move, which the game must be finished or archived for, its stream in Redis)
-- ARGV[10] the idempotency record of a keyed append, else ''
-- ARGV[11] the idempotency record's lifetime, in seconds
-- Every append sends all eleven, in this order, laid out from one value in one place
-- (service.store.scripts.append_argv).

local header, events, idem = KEYS[1], KEYS[2], KEYS[3]
local current = redis.call('HMGET', header, 'version', 'status', 'head_hash', 'trimmed',
                           'token_sha256', 'seat_tokens_sha256')
if not current[1] then return {'missing'} end
local holds = current[5]
if ARGV[6] ~= 'recorder' then
    local decoded, seats = pcall(cjson.decode, current[6] or '')
    holds = decoded and type(seats) == 'table' and seats[tonumber(ARGV[6]) + 1]
end
if holds ~= ARGV[7] then return {'revoked'} end
if idem then
    local prior = redis.call('GET', idem)
    if prior then
        redis.call('EXPIRE', idem, ARGV[11])
        return {'replayed', prior}
    end
end
local change = ARGV[9]
if change == 'reopen' then
    if current[2] == 'active' then return {'conflict', current[1]} end
    if current[2] ~= 'finished' and current[2] ~= 'archived' then return {'finished'} end
    if current[4] == '1' then return {'trimmed'} end
elseif current[2] ~= 'active' then
    return {'finished'}
end
if current[1] ~= ARGV[1] then return {'conflict', current[1]} end
if current[3] ~= ARGV[5] then return {'other_head', current[1]} end
local seq = tonumber(ARGV[1]) + 1
redis.call('XADD', events, '0-' .. seq, 'body', ARGV[2], 'at', ARGV[3], 'hash', ARGV[4])
if ARGV[8] ~= '' then
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4],
               'status', 'finished', 'finished_at', ARGV[3], 'result', ARGV[8])
elseif change == 'abandon' then
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4], 'status', 'abandoned')
elseif change == 'reopen' then
    -- The figures of the finish it undoes wait to be withdrawn (workers.archive): 'reopened'.
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4], 'status', 'active',
               'reopened', '1')
    redis.call('HDEL', header, 'finished_at', 'result')
else
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4])
end
if idem then
    redis.call('SET', idem, ARGV[10], 'EX', ARGV[11])
end
return {'appended', tostring(seq)}
