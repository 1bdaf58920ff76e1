"""The store: each game's record in Redis (its header, its stream of events, its hash chain), the
connection to Redis or a Redis Cluster, the embedded Redis, the archive files, the audit that
replays and checks a record, and the queue the archive jobs go through.

It stands on ``domain`` alone; the API, the pages, the statistics and the workers stand on it.
"""
