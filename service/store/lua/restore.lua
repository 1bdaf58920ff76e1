-- Puts back into Redis the stream of a game whose archive replaced it (trimmed), so that its last
-- move can be retracted. Only on a trimmed game whose stream is empty: run twice, it writes once.
-- KEYS[1]  header
-- KEYS[2]  events
-- ARGV     each event as body, at, hash, in order

if redis.call('HGET', KEYS[1], 'trimmed') ~= '1' then return 0 end
if redis.call('XLEN', KEYS[2]) ~= 0 then return 0 end
for first = 1, #ARGV, 3 do
    redis.call('XADD', KEYS[2], '0-' .. ((first + 2) / 3), 'body', ARGV[first],
               'at', ARGV[first + 1], 'hash', ARGV[first + 2])
end
redis.call('HDEL', KEYS[1], 'trimmed')
return 1
