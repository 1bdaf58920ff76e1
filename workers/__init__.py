"""RQ workers: the jobs that run after a game's last move (archiving, statistics)."""
