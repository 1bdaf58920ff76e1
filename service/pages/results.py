"""A game's outcome in words: who won ("Chloé won", "Alice and Bruno shared the win", "a draw", a
cooperative game's "the table won" or "the table lost", "no winner"), and each score ("—" for a
score never written: no score, not a 0; the statistics' means likewise, ``figure_words``; a game
where no number was written at all says no score). The viewer and the recent games
say the result so; a player's list of games says it from that player's side, with the score that
player made (a name seated twice has each seat's score). static/lib/follow.js says it the same way
once a game ends on a page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from service.pages.plots import shown_number
from service.store.records import GameRecord

NO_SCORE: Final = "—"


def outcome_words(
    result: dict[str, Any], players: Sequence[str], options: dict[str, Any] | None = None
) -> str:
    """Who won the game whose result is ``result``, in a sentence's words: "Chloé won", "Alice
    and Bruno shared the win", a named team's "Blue won (Bruno and Dev)" (a score sheet's
    ``team_names``, in ``options``), never a win by nobody."""
    outcome = result.get("outcome")
    if outcome in ("won", "lost"):
        # A cooperative game: the table shares one fate.
        return f"the table {outcome}"
    if result.get("draw"):
        return "a draw"
    seats = result.get("winners") or []
    # A name seated twice is named once.
    winners = list(dict.fromkeys(players[seat] for seat in seats if 0 <= seat < len(players)))
    if not winners:
        return "no winner"
    team = _winning_team(result.get("winners") or [], options or {})
    if team is not None:
        return f"{team} won ({_listed(winners)})"
    return f"{winners[0]} won" if len(winners) == 1 else f"{_listed(winners)} shared the win"


def scores_words(result: dict[str, Any], players: Sequence[str]) -> str:
    """Each player's score ("Alice 12.5, Bruno —"), or "" for a game where no number was
    written at all (a game without points says no score, not a row of dashes or zeros)."""
    scores = result.get("scores") or []
    if all(score is None for score in scores):
        return ""
    return ", ".join(
        f"{players[seat]} {score_words(score)}" for seat, score in enumerate(scores)
        if seat < len(players)
    )  # fmt: skip


def score_words(score: Any) -> str:
    """A score of a result as written: its number, or a dash where none was ever written."""
    return NO_SCORE if score is None else str(score)


def figure_words(value: float | None) -> str:
    """A mean of the statistics, to two decimals; a dash where there is none (no number written
    in the games it is over, or figures across several games, whose scores have no mean)."""
    return NO_SCORE if value is None else f"{value:.2f}"


def result_words(record: GameRecord, player: str) -> str:
    """``Ben won; Ana's score: 12``; ``a draw; ...`` (no score where none was written in the
    game); for a game with no result, where it
    stands (``under way: 14 moves``, or ``no result`` for one that ended without, abandoned say)."""
    result: dict[str, Any] | None = record.result
    if not result:
        if record.status == "active":
            return f"under way: {record.version} move{'' if record.version == 1 else 's'}"
        return "abandoned: no result" if record.status == "abandoned" else "no result"
    outcome = outcome_words(result, record.players, record.options)
    scores = result.get("scores") or []
    if all(score is None for score in scores):
        return outcome
    own = [
        shown_number(score) if isinstance(score, int | float) else score_words(score)
        for seat, score in enumerate(scores)
        if seat < len(record.players) and record.players[seat] == player
    ]
    if own:
        outcome += f"; {player}'s score: {', '.join(own)}"
    return outcome


def _winning_team(winners: Sequence[int], options: dict[str, Any]) -> str | None:
    """The name of the team whose seats are exactly ``winners``, where the teams are named."""
    teams, names = options.get("teams"), options.get("team_names")
    if not teams or not names:
        return None
    for team, name in zip(teams, names, strict=False):
        if sorted(team) == sorted(winners):
            return str(name)
    return None


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def won_words(result: dict[str, Any] | None, players: Sequence[str]) -> str:
    """Who won, as a sentence a group reads the next day (``outcome_words``)."""
    return outcome_words(result or {}, players)
