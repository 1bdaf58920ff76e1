-- Adds one game's figures unless its id is already in the counted set: the guard and the increments
-- are one script, so a crash or a second run can never count a game twice, nor half of it. The same
-- script withdraws a game's figures (a retraction undid its finish) with ARGV[3] 'withdraw' and the
-- amounts negated: only if the game is in the counted set, and a field brought to 0 is deleted, so
-- that the figures are those of a store that never counted the game.
-- KEYS: counted set, index set, then the figure hashes (their suffixes go to the index). ARGV: the
-- game id, then the groups as JSON (one argument: far cheaper to send than hundreds): a group is
-- [the hashes' numbers in KEYS, [[op, field, amount], ...]], each increment added to every hash of
-- the group: op "i" a count, "n" a whole score, "f" a float one, "s" a value set (a title's
-- spelling, kept per game: withdrawn, it is deleted). A game adds the same figures to
-- many buckets: sent once, not per bucket.

-- Decoded before the first write: a script that fails midway keeps what it wrote.
local groups = cjson.decode(ARGV[2])
local withdraw = ARGV[3] == 'withdraw'
if withdraw then
    if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
elseif redis.call('SADD', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local suffix_at = #KEYS[2] - #'index' + 1
local suffixes = {}
for k = 3, #KEYS do
    suffixes[#suffixes + 1] = string.sub(KEYS[k], suffix_at)
end
-- One SADD for them all: a command per key costs more than the work it does.
redis.call('SADD', KEYS[2], unpack(suffixes))
for _, group in ipairs(groups) do
    for _, number in ipairs(group[1]) do
        local key = KEYS[number]
        for _, increment in ipairs(group[2]) do
            local op, name, amount = increment[1], increment[2], increment[3]
            local now
            if op == 's' then
                -- A value kept per game (a title's spelling): set, or deleted on withdrawal.
                if withdraw then
                    redis.call('HDEL', key, name)
                else
                    redis.call('HSET', key, name, amount)
                end
            elseif op == 'f' then
                now = redis.call('HINCRBYFLOAT', key, name, amount)
            elseif op == 'n' then
                -- A whole score: as an integer, unless a float score made the sum a float
                -- (HINCRBY then refuses, changing nothing).
                now = redis.pcall('HINCRBY', key, name, amount)
                if type(now) == 'table' and now.err then
                    now = redis.call('HINCRBYFLOAT', key, name, amount)
                end
            else
                now = redis.call('HINCRBY', key, name, amount)
            end
            if withdraw and op ~= 's' and tonumber(now) == 0 then
                redis.call('HDEL', key, name)
            end
        end
    end
end
if withdraw then
    -- A hash emptied is gone: the index names it no more, as if it had never been counted.
    for k = 3, #KEYS do
        if redis.call('EXISTS', KEYS[k]) == 0 then
            redis.call('SREM', KEYS[2], suffixes[k - 2])
        end
    end
end
return 1
