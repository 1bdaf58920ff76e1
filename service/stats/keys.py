"""Where the statistics lie in Redis: every key of the figures and of the ratings, in one place.

Counting (``service.stats.counting``), rating (``service.stats.ratings.writing``) and the rebuild
(``service.stats.rebuild``) write these keys; the read sides (``service.stats.reading``,
``service.stats.ratings.reading``, ``service.stats.titles``) read them. Nothing outside
``service/stats/`` names them.

Keys, all under ``<prefix>{stats}`` (one hash tag: one script or one MULTI may touch them all, and
in a Redis Cluster they share a slot, on one master). A rebuild writes under
``<prefix>{stats}rebuild-<hex>``, whose hash tag is the same ``{stats}``: the count script, which
writes either root, and the rebuild's swap, which renames one root's keys onto the other's, each
touch one slot, so each stays one atomic step on a cluster too. The figures are small (a hash per
game, per player), and written once per finished game: one slot holds them well.

- ``:counted`` set: the ids of the games counted, the guard that admits each game once;
- ``:index`` set: the suffix of every figure key written, so that a rebuild knows what it replaces;
- ``:game:<game>`` hash: ``events``, ``seat:<i>:wins``, ``first:wins``, ``players:<n>:games``,
  ``players:<n>:winners`` and ``counter:<name>``. The games, and the games each seat held, are
  read from ``players:<n>:games`` (a game of n players seats 0 to n - 1): not written, so that
  every bucket (below) is smaller and cheaper to add to. A win count that stays 0 is not written
  either (absent reads as 0);
- ``:game:<game>:scores`` hash: a score (as JSON) -> how many seats ended a game with it (the
  numbers written: a ``null`` score is none);
- ``:game:<game>:players`` hash: ``games:<player>``, ``wins:<player>``, ``score:<player>`` (the
  sum of the numbers written) and ``unscored:<player>`` (the plays with none: a mean divides by
  games - unscored; written, as a win count, only when not 0);
- ``:player:<player>`` hash: ``games:<game>``, ``wins:<game>``, ``score:<game>``,
  ``unscored:<game>``.

Those answer the unfiltered queries. The filters (player count, player, days) read the same
figures kept per bucket: per game, player count ``<n>`` and period ``<p>`` (a UTC day, month or
year, ``service.stats.periods``), a query summing the buckets it covers. Each game is also added
to the buckets whose ``<n>`` is ``all`` (every player count): a query without ``players=`` reads
those, a quarter as many hashes as the per-count ones would be for a game of 2 to 5 (not the
per-player buckets: they would double the writes of a game, which are mostly theirs):

- ``:fig:<game>:<n>:<p>:totals``, ``:scores``, ``:players``: the three hashes above, over the games
  of that bucket;
- ``:pfig:<game>:<n>:<p>:<section>:<player>``: the same, over the games of that bucket that
  ``<player>`` played in (``player=``), ``<n>`` a player count only: without ``players=``, a
  query reads each count the game's ``players:<n>:games`` fields name (not its rules' range: a
  score sheet of a game with rules may seat any number);
- ``:own:<player>`` hash: the player's own figures per bucket, ``<game>:<n>:<p>:games``,
  ``...:wins``, ``...:score`` and ``...:unscored`` (``<n>`` a count or ``all``), for their
  filtered figures: a few fields per bucket where the ``players`` section above holds every
  co-player's;
- ``:vs:<["a","b"]>`` hash, one per pair of names (sorted, as JSON): ``<game>:<n>:<p>:games``,
  ``...:wins:0`` (the first name's wins), ``...:wins:1`` (the second's), for head to head
  (``<n>`` a player count or ``all`` here too);
- ``:names`` hash: every name as the records wrote it -> the finished games it is in, and
  ``:name:<name>`` hash: game id -> ``{"game", "finished_at", "names"}`` (JSON) of each: what the
  roster (``service.players``) checks a join against and lists; the figures above count people
  (``service.stats.people``), these the names as written;
- ``:years`` hash: year -> games finished in it, the years a query may have to cover;
- ``:titles`` hash: a title's key -> its finished games; ``:title:<key>`` hash: game id -> the
  title as that game spelt it, with its BoardGameGeek id and finish time, as JSON (what
  ``GET /titles`` shows: the spelling of the latest game).

A game counts under its statistics key (``Game.stats_key``): its own name, or a score sheet's
title key; ``<game>`` above is that key.

The ratings, per game ``<g>``, under the same root:

- ``:ratings:<g>:order`` sorted set: game id -> its ``finished_at`` in microseconds since the
  epoch. Redis orders equal scores by member, so the set's order is the finish order:
  ``finished_at``, then id. A game's presence is also the guard that rates it once.
- ``:ratings:<g>:games`` hash: game id -> JSON of what its rating used and gave, seat by seat:
  ``{"finished_at", "players", "ranks", "before", "after"}`` (and ``"teams"`` for a game of
  teams), ``before``/``after`` as ``[mu, sigma, games]``. The inputs let a game archived late be
  put back in its place and the games after it rated again; ``after`` is each player's rating
  history.
- ``:ratings:<g>:current`` hash: player -> JSON ``[mu, sigma, games]`` after their latest game.
- ``:ratings:<g>:board`` sorted set: player -> ``-(mu - 3 * sigma)``, the leaderboard: negated,
  so that read from the lowest score up it is best first and, as Redis orders equal scores by
  member, equal ratings by name ascending.
- ``:ratings:<g>:played:<player>`` sorted set: the player's game ids, scored as in ``order``.

Every figure is an integer summed with HINCRBY, exact in any order, so a rebuild that counts the
games in another order ends with the same figures. Score sums are the exception: HINCRBYFLOAT, so a
game may score in floats; integer scores stay exact, float ones are exact up to rounding.
A player seated twice in one game counts two plays.
"""

from __future__ import annotations

import json

# The hash tag every statistics key carries; a rebuild writes under ``{stats}rebuild-<hex>``.
LIVE_ROOT = "{stats}"


class StatsKeys:
    """The names of the statistics keys under one root: the live one, or a rebuild's."""

    def __init__(self, prefix: str, root: str = LIVE_ROOT) -> None:
        self.prefix = prefix
        self.base = f"{prefix}{root}"
        self.counted = f"{self.base}:counted"
        self.index = f"{self.base}:index"
        # How the live figures were counted (``rebuild.COUNTING``), and the lease of the one
        # worker that counts them again when that is not how this code counts.
        self.counting = f"{self.base}:counting"
        self.recounting = f"{self.base}:recounting"
        # The roster version (``service.players.store``) the figures were last counted with.
        self.roster = f"{self.base}:roster"

    def key(self, suffix: str) -> str:
        return f"{self.base}:{suffix}"


# --- the figures -------------------------------------------------------------------------------


def game_suffix(name: str) -> str:
    return f"game:{name}"


def scores_suffix(name: str) -> str:
    return f"game:{name}:scores"


def game_players_suffix(name: str) -> str:
    return f"game:{name}:players"


def player_suffix(name: str) -> str:
    return f"player:{name}"


SECTIONS = ("totals", "scores", "players")

# The ``<n>`` of the buckets that hold every player count's games.
ALL_COUNTS = "all"


def bucket_suffix(game: str, players: int | str, period: str, section: str) -> str:
    return f"fig:{game}:{players}:{period}:{section}"


def player_bucket_suffix(
    game: str, players: int | str, period: str, section: str, name: str
) -> str:
    # The name last: whatever it holds (colons included), the fixed parts before it tell the
    # keys of two names apart.
    return f"pfig:{game}:{players}:{period}:{section}:{name}"


def own_suffix(name: str) -> str:
    return f"own:{name}"


def pair_suffix(a: str, b: str) -> str:
    """The head-to-head hash of two names, whichever order they come in."""
    return "vs:" + json.dumps(sorted((a, b)), ensure_ascii=False)


def pair_field(game: str, players: int | str, period: str, what: str) -> str:
    return f"{game}:{players}:{period}:{what}"


# The names as written (``service.stats.names``): ``names`` counts each one's finished games,
# ``name:<name>`` keeps, per game, its key, finish time and names.
NAMES_SUFFIX = "names"


def name_suffix(name: str) -> str:
    return f"name:{name}"


YEARS_SUFFIX = "years"
# Titles (``service.stats.titles``): ``titles`` counts the finished games per title key, and
# ``title:<key>`` keeps, per game, the title's spelling, BoardGameGeek id and finish time.
TITLES_SUFFIX = "titles"


def title_suffix(key: str) -> str:
    return f"title:{key}"


# --- the ratings -------------------------------------------------------------------------------


def order_suffix(game: str) -> str:
    return f"ratings:{game}:order"


def games_suffix(game: str) -> str:
    return f"ratings:{game}:games"


def current_suffix(game: str) -> str:
    return f"ratings:{game}:current"


def board_suffix(game: str) -> str:
    return f"ratings:{game}:board"


def played_suffix(game: str, player: str) -> str:
    return f"ratings:{game}:played:{player}"


def rating_suffixes(game: str) -> tuple[str, ...]:
    """The keys of a game type's ratings, as the statistics' index names them (a player's
    ``played`` set apart)."""
    return order_suffix(game), board_suffix(game), games_suffix(game), current_suffix(game)
