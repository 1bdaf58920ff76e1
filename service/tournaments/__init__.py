"""Tournaments: a club's event as a record of its own, its tables real games.

- ``log``: the events a tournament's record is made of, and the tournament they add up to;
- ``store``: where its log lies in Redis (one key, one slot), appended to by Lua scripts;
- ``plan``: what a new tournament asks for, checked against its game;
- ``outcomes``: a table's outcome from its game's record, points and standings as JSON;
- ``tournaments``: the use cases (create, read, pair the next round, withdraw, export);
- ``verify``: the check of an export, from the file alone (``tabletape verify``).

How rounds are paired, points counted and standings ordered is ``domain.tournaments``' (pure).
"""
