-- Marks a finished game archived, only if it is still finished at the version the archive job
-- archived (the recorder may have reopened it meanwhile).
-- KEYS[1]  header
-- KEYS[2]  events
-- ARGV[1]  the version archived
-- ARGV[2]  '1': the stream is dropped (trimmed); '0': it is kept

local current = redis.call('HMGET', KEYS[1], 'status', 'version')
if current[1] ~= 'finished' or current[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'archived')
if ARGV[2] == '1' then
    redis.call('HSET', KEYS[1], 'trimmed', '1')
    redis.call('DEL', KEYS[2])
end
return 1
