"""Game nights: the games of one evening, from 06:00 to 06:00 the next day on the server's clock
(``TZ``), so that a night past midnight stays one evening; and the evenings played, newest first.

- ``evenings``: which evening a finish falls in, and an evening's games, players and titles, read
  from the listing of the games (``service.store.indexes``: one sorted set by finish time, on one
  slot of a cluster), so no index of its own has to be kept or rebuilt;
- ``api``: ``GET /nights/{date}`` and ``GET /nights``, with their schemas.

Its page, what a group shares the next day, is ``service.pages.nights``.
"""
