"""RQ jobs and their queue: the archive job that runs after a game's last move, and counts the
game through the statistics (``service.stats``)."""
