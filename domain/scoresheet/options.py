"""A score sheet's creation options (scoresheet.md, "Creating one"), checked and completed.

``title`` is a MUST; ``scoring`` (``"highest"``) and ``cooperative`` (false) are filled in;
``bgg_id``, ``teams`` (and their ``team_names``), ``location`` and ``comment`` are kept only
when given. Anything else,
``chance`` included (a score sheet has no chance: the seed decides nothing), is refused with
InvalidOptionsError naming the field, as every game's options are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from domain.errors import InvalidOptionsError
from domain.events import is_int
from domain.repeats import repeated
from domain.scoresheet.state import HIGHEST, SCORINGS
from domain.scoresheet.titles import check_title

OPTION_NAMES: Final = (
    "title", "bgg_id", "scoring", "cooperative", "teams", "team_names", "location", "comment",
)  # fmt: skip
# Where it was played and a note on it, as long as another app's may be (imports carry them).
TEXT_LENGTHS: Final = {"location": (1, 200), "comment": (0, 2000)}
# A team's name ("Red", "Blue"): as short as a pad's column can show.
TEAM_NAME_LENGTHS: Final = (1, 40)
# A BoardGameGeek id is a positive integer; kept within 64 bits, as the record's JSON is.
BGG_ID_MAX: Final = 2**63 - 1


def check_options(raw: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The options of a score sheet of ``players`` seats (already counted and known to be an
    object with no unknown option), completed."""
    if "title" not in raw:
        raise InvalidOptionsError(
            "a score sheet needs a title: the game played, as people call it",
            {"title": "required"},
        )
    options: dict[str, Any] = {"title": check_title(raw["title"])}
    if "bgg_id" in raw:
        bgg_id = raw["bgg_id"]
        if not is_int(bgg_id) or not 1 <= bgg_id <= BGG_ID_MAX:
            raise InvalidOptionsError(
                f"bgg_id must be the game's BoardGameGeek id, a positive integer, got {bgg_id!r}",
                {"bgg_id": "a positive integer"},
            )
        options["bgg_id"] = int(bgg_id)
    scoring = raw.get("scoring", HIGHEST)
    if not isinstance(scoring, str) or scoring not in SCORINGS:
        raise InvalidOptionsError(
            f"scoring must be 'highest', 'lowest' or 'none', got {scoring!r}",
            {"scoring": "'highest', 'lowest' or 'none'"},
        )
    options["scoring"] = scoring
    cooperative = raw.get("cooperative", False)
    if not isinstance(cooperative, bool):
        raise InvalidOptionsError(
            f"cooperative must be true or false, got {cooperative!r}",
            {"cooperative": "true or false"},
        )
    options["cooperative"] = cooperative
    if "teams" in raw:
        options["teams"] = check_teams(raw["teams"], players)
    if "team_names" in raw:
        options["team_names"] = check_team_names(raw["team_names"], options.get("teams"))
    for field, (shortest, longest) in TEXT_LENGTHS.items():
        if field in raw:
            options[field] = check_text(field, raw[field], shortest, longest)
    return options


def check_text(field: str, text: Any, shortest: int, longest: int) -> str:
    """The ``location`` or ``comment`` option: a string of ``shortest`` to ``longest``
    characters."""
    what = f"a string of {shortest} to {longest:,} characters"
    if not isinstance(text, str) or not shortest <= len(text) <= longest:
        shown = f"{len(text)} characters" if isinstance(text, str) else repr(text)
        raise InvalidOptionsError(f"{field} must be {what}, got {shown}", {field: what})
    return text


def check_teams(teams: Any, players: int) -> list[list[int]]:
    """A list of at least two teams, each a non-empty list of seats, every seat in exactly one."""
    what = f"a list of at least two teams, each a list of seats 0..{players - 1}, every seat once"
    if not isinstance(teams, list) or not all(
        isinstance(team, list) and team and all(is_int(seat) for seat in team) for team in teams
    ):
        raise InvalidOptionsError(f"teams must be {what}, got {teams!r}", {"teams": what})
    if len(teams) < 2:
        raise InvalidOptionsError(
            f"teams must be at least two teams, got {len(teams)}", {"teams": what}
        )
    seats = [seat for team in teams for seat in team]
    outside = sorted({seat for seat in seats if not 0 <= seat < players})
    if outside:
        raise InvalidOptionsError(
            f"teams name seats {outside} of a game of {players} players (seats 0..{players - 1})",
            {"teams": what},
        )
    twice = repeated(seats)
    if twice:
        raise InvalidOptionsError(
            f"teams name seats {twice} more than once: every seat is in exactly one team",
            {"teams": what},
        )
    missing = sorted(set(range(players)) - set(seats))
    if missing:
        raise InvalidOptionsError(
            f"teams leave out seats {missing}: every seat is in exactly one team",
            {"teams": what},
        )
    return [[int(seat) for seat in team] for team in teams]


def check_team_names(names: Any, teams: list[list[int]] | None) -> list[str]:
    """One name per team, 1 to 40 characters, not blank, no two the same; only with ``teams``."""
    if teams is None:
        raise InvalidOptionsError(
            "team_names names the teams: give teams too", {"team_names": "needs teams"}
        )
    shortest, longest = TEAM_NAME_LENGTHS
    what = f"one name per team ({len(teams)}), each {shortest} to {longest} characters, distinct"
    if (
        not isinstance(names, list)
        or len(names) != len(teams)
        or not all(
            isinstance(name, str)
            and shortest <= len(name) <= longest
            and name.strip()
            and name.isprintable()
            for name in names
        )
    ):
        raise InvalidOptionsError(f"team_names must be {what}, got {names!r}", {"team_names": what})
    twice = repeated(names)
    if twice:
        raise InvalidOptionsError(
            f"team_names name {twice} more than once: each team its own name",
            {"team_names": what},
        )
    return list(names)
