"""A play logged in another app, recorded as a finished score sheet (api.md, Bringing history
in): one ``score`` event per player with a score, then the ``end`` with its ranks (or a
cooperative play's outcome), every event at the play's start, the finish ``minutes`` later.

The ranks: the units (teams, or seats alone) with a seat marked winner rank 1 and the others
follow, by their totals where the game has points (a unit with no number written last), else
sharing the next rank; with no winner marked, the totals decide. Members of a team share its
rank. With no winner marked and no number written (or every number written a 0, as some apps
fill the field), the play ended with no winner: its end is ``"winners": []`` (counted as played,
nobody wins, nobody is rated), as BG Stats and BoardGameGeek count it. A number never written
makes no ``score`` event: it is no score, not a 0. A cooperative play is won when every seat
is marked winner, lost when none is, and not cooperative when some are (a traitor's game).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from domain.errors import InvalidOptionsError
from domain.history import Play, Unreadable, play_seed
from domain.scoresheet.options import TEXT_LENGTHS
from domain.scoresheet.state import HIGHEST, NONE
from domain.scoresheet.titles import check_title


def teams_of(play: Play) -> list[list[int]] | None:
    """The teams of a play that uses them: seats grouped by their team, in order of first seat
    (a seat without a team is a team alone); None with fewer than two teams. A cooperative
    play keeps its teams too, though the table wins or loses together."""
    if not play.uses_teams:
        return None
    groups: dict[str, list[int]] = {}
    for seat, one in enumerate(play.seats):
        label = one.team if one.team else f"\0seat {seat}"
        groups.setdefault(label, []).append(seat)
    teams = list(groups.values())
    return teams if len(teams) >= 2 else None


def nobody_won(play: Play) -> bool:
    """Whether the play ended with no winner: the file says so, or no winner is marked and no
    number written (or every number written a 0)."""
    return play.no_winner or (
        not any(one.winner for one in play.seats) and all(not one.score for one in play.seats)
    )


def ranks_of(play: Play, teams: list[list[int]] | None) -> list[int]:
    """A rank per seat, as the module says."""
    units = teams if teams is not None else [[seat] for seat in range(len(play.seats))]
    won = [any(play.seats[seat].winner for seat in unit) for unit in units]
    # Each unit's total, or None when no number was written for any of its seats.
    totals = [
        sum((Decimal(str(play.seats[seat].score)) for seat in written), Decimal(0))
        if (written := [seat for seat in unit if play.seats[seat].score is not None])
        else None
        for unit in units
    ]

    def better(a: int, b: int) -> bool:
        """Whether unit ``a`` scored better than unit ``b`` (a unit with a number is better
        than one without)."""
        first, second = totals[a], totals[b]
        if play.scoring == NONE or first is None:
            return False
        if second is None:
            return True
        return first > second if play.scoring == HIGHEST else first < second

    winners = sum(won)
    unit_ranks = []
    for unit in range(len(units)):
        if won[unit]:
            unit_ranks.append(1)
            continue
        rivals = [other for other in range(len(units)) if not won[other]]
        unit_ranks.append(winners + 1 + sum(better(other, unit) for other in rivals))
    ranks = [0] * len(play.seats)
    for members, rank in zip(units, unit_ranks, strict=True):
        for seat in members:
            ranks[seat] = rank
    return ranks


def moment(when: datetime) -> str:
    """An instant as a record writes it: ``2025-01-01T12:00:00.000Z``, the year in four digits
    from year 1 on (strftime's ``%Y`` writes year 1 as ``1``)."""
    milliseconds = when.microsecond // 1000
    return f"{when.year:04d}" + when.strftime("-%m-%dT%H:%M:%S.") + f"{milliseconds:03d}Z"


def record_play(play: Play, name: str, rules_version: str, max_players: int) -> dict[str, Any]:
    """The export of the finished score sheet ``play`` is (game ``name``, ``rules_version``);
    Unreadable for a title the score sheet refuses or a count of players it does not take."""
    try:
        title = check_title(play.title)
    except InvalidOptionsError as error:
        raise Unreadable(f"the game's name {play.title!r} is refused: {error.message}") from None
    if not 1 <= len(play.seats) <= max_players:
        raise Unreadable(
            f"the play has {len(play.seats)} players: a score sheet takes 1 to {max_players}"
        )
    teams = teams_of(play)
    marked = [one.winner for one in play.seats]
    # A cooperative play where only some are marked winner is a traitor's game (one side
    # against the table): recorded as not cooperative, with those winners.
    cooperative = play.cooperative and (all(marked) or not any(marked))
    options: dict[str, Any] = {"title": title, "scoring": play.scoring}
    options["cooperative"] = cooperative
    if play.bgg_id:
        options["bgg_id"] = play.bgg_id
    for field, text in (("location", play.location), ("comment", play.comment)):
        # Cut to what a score sheet holds: a long note costs its end, never the play.
        kept = (text or "").strip()[: TEXT_LENGTHS[field][1]].strip()
        if kept:
            options[field] = kept
    if teams is not None:
        options["teams"] = teams
    at = moment(play.started)
    try:
        finished = play.started + timedelta(minutes=play.minutes)
    except OverflowError:
        raise Unreadable(
            f"it would end {play.minutes} minutes after {play.started_as_written or at},"
            " past the calendar's last day"
        ) from None
    events: list[dict[str, Any]] = []
    if play.scoring != NONE:
        events += [
            {"type": "score", "player": seat, "points": one.score, "at": at}
            for seat, one in enumerate(play.seats)
            if one.score is not None
        ]
    if cooperative:
        outcome = "won" if all(marked) else "lost"
        events.append({"type": "end", "outcome": outcome, "at": at})
    elif nobody_won(play):
        events.append({"type": "end", "winners": [], "at": at})
    else:
        events.append({"type": "end", "ranks": ranks_of(play, teams), "at": at})
    return {
        "game": name,
        "players": [one.name for one in play.seats],
        "seed": play_seed(play),
        "options": options,
        "rules_version": rules_version,
        "created_at": at,
        "finished_at": moment(finished),
        "events": events,
    }
