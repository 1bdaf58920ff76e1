"""The check of a tournament's export, from the file alone (``tabletape verify``): no server, no
store. In this order, stopping at the first thing that does not hold:

1. the pairing rules' version (the verifier's own), and the seed against its commitment;
2. every table's record, checked as a game's is (``service.signing.verify``): its seed, its
   replay by the rules, its hash chain and its signed note; an abandoned table's record has no
   note (nobody won it), and is checked without one;
3. every table's players and game the tournament's, and its result the one its record gives;
4. every round's tables and byes, paired again from the seed, the players, the format, the
   withdrawals and the results of the rounds before it;
5. the standings, counted again from every table's result.
"""

from __future__ import annotations

from typing import Any

from domain.tournaments import (
    RULES_VERSION,
    PlayedRound,
    Table,
    TableOutcome,
    pair_round,
    standings,
)
from service.signing.note import VerifierKey
from service.signing.verify import Verdict
from service.signing.verify import verify as verify_record
from service.store.audit import replay_record
from service.store.chain import seed_commitment
from service.tournaments.outcomes import result_json, standings_json, table_outcome

# What a record's verdict says of a record with no note (an abandoned game's).
_NO_NOTE = "it carries no signed note"


class _Refused(Exception):
    """The first thing about a tournament's export that does not hold, in a sentence."""


def is_tournament(document: Any) -> bool:
    """Whether ``document`` is a tournament's export (a game's record has events, not rounds)."""
    return isinstance(document, dict) and "rounds" in document and "standings" in document


def verify_tournament(document: dict[str, Any], key: VerifierKey | None = None) -> Verdict:
    """What holds of a tournament's export, or the first thing that does not, in a sentence."""
    try:
        return Verdict(True, _verify(document, key))
    except _Refused as refused:
        return Verdict(False, str(refused))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        return Verdict(False, f"it cannot be read as a tournament's export ({error!r})")


def _verify(document: dict[str, Any], key: VerifierKey | None) -> str:
    if document.get("status") != "finished":
        raise _Refused("the tournament is not over: its export can be checked once it is")
    if document["rules_version"] != RULES_VERSION:
        raise _Refused(
            f"it was paired by rules {document['rules_version']!r}, and this verifier pairs by"
            f" {RULES_VERSION!r}: check it with a Tabletape of those rules"
        )
    seed, salt = document["seed"], document["seed_salt"]
    if seed_commitment(seed, salt) != document["seed_commitment"]:
        raise _Refused("its seed and salt do not match its seed commitment")
    players = list(document["players"])
    table_size = tuple(document["table_size"])
    history: list[PlayedRound] = []
    games = 0
    for number, paired in enumerate(document["rounds"], start=1):
        withdrawn = [
            withdrawal["player"]
            for withdrawal in document.get("withdrawals", [])
            if withdrawal["after_round"] < number
        ]
        expected = pair_round(
            document["format"], players, withdrawn, history, seed, (table_size[0], table_size[1])
        )
        given = [tuple(table["players"]) for table in paired["tables"]]
        if [table.players for table in expected.tables] != given or list(expected.byes) != list(
            paired["byes"]
        ):
            raise _Refused(
                f"round {number}'s tables are not those its seed, players and the results"
                f" before it give: {_tables_words(expected.tables, expected.byes)}"
            )
        outcomes = [_table(document, number, table, key) for table in paired["tables"]]
        games += len(outcomes)
        history.append(
            PlayedRound(
                tables=tuple(Table(tuple(table["players"])) for table in paired["tables"]),
                outcomes=tuple(outcomes),
                byes=tuple(paired["byes"]),
            )
        )
    if len(history) != document["rounds_planned"]:
        raise _Refused(f"it plans {document['rounds_planned']} rounds and holds {len(history)}")
    counted = standings_json(standings(players, history, seed))
    if counted != document["standings"]:
        given = list(document["standings"]) + [None] * len(counted)
        first = next(n for n, row in enumerate(counted, start=1) if row != given[n - 1])
        raise _Refused(
            f"its standings are not those its tables' results give: place {first} is"
            f" {_standing_words(counted[first - 1])}"
        )
    return (
        f"its seed commitment, {len(history)} rounds paired again from the seed, {games} tables'"
        " records and the standings hold"
    )


def _table(
    document: dict[str, Any], number: int, table: dict[str, Any], key: VerifierKey | None
) -> TableOutcome:
    """The outcome of a table whose record holds, or _Refused saying what does not."""
    where = f"round {number}, table {table['table']}"
    record = table["record"]
    verdict = verify_record(record, key)
    replay = replay_record(
        {name: record[name] for name in ("game", "players", "seed", "options", "rules_version")},
        [{k: v for k, v in event.items() if k not in ("seq", "at", "hash")}
         for event in record["events"]],
    )  # fmt: skip
    abandoned_unsigned = replay.abandoned and verdict.sentence.startswith(_NO_NOTE)
    if not verdict.ok and not abandoned_unsigned:
        raise _Refused(f"{where}: its game's record does not hold: {verdict.sentence}")
    if record["players"] != table["players"] or record.get("id", table["game"]) != table["game"]:
        raise _Refused(f"{where}: its game's record is of other players or another game")
    if record["game"] != _game_of(document):
        raise _Refused(f"{where}: its game is {record['game']}, not the tournament's")
    status = "abandoned" if replay.abandoned else "finished" if replay.result else "active"
    outcome = table_outcome(status, replay.result)
    if outcome is None:
        raise _Refused(f"{where}: its game is not over")
    given = table["result"]
    counted = result_json(outcome, len(table["players"]))
    if given != counted:
        raise _Refused(
            f"{where}: its result was changed: the export says {_result_words(given)}, and its"
            f" game's record gives {_result_words(counted)}"
        )
    return outcome


def _game_of(document: dict[str, Any]) -> str:
    game: str = document["game"]
    return game


def _tables_words(tables: tuple[Table, ...], byes: tuple[str, ...]) -> str:
    words = "; ".join(" against ".join(table.players) for table in tables)
    return words + (f"; {', '.join(byes)} sitting out" if byes else "")


def _result_words(result: Any) -> str:
    if not isinstance(result, dict):
        return "no result"
    if result.get("abandoned"):
        return "an abandoned game"
    ranks = result.get("ranks")
    return "no winner" if ranks is None else f"places {', '.join(str(r) for r in ranks)}"


def _standing_words(row: dict[str, Any]) -> str:
    return f"{row['player']} with {row['points']:g} points"
