"""Backups in the shape of the BG Stats app's export, and BoardGameGeek's plays XML, made in the
tests (field names as the app writes them)."""

from __future__ import annotations

import json
import random
import uuid as uuids
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any


@dataclass
class Backup:
    """A BG Stats export under construction: ``player``, ``game`` and ``play`` add to it."""

    players: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    plays: list[dict[str, Any]] = field(default_factory=list)

    def player(self, name: str) -> int:
        ref = len(self.players) + 1
        self.players.append(
            {"id": ref, "uuid": str(uuids.uuid4()), "name": name, "isAnonymous": False}
        )
        return ref

    def game(
        self,
        name: str,
        bgg_id: int = 0,
        highest_wins: bool = True,
        no_points: bool = False,
        cooperative: bool = False,
    ) -> int:
        ref = len(self.games) + 1
        self.games.append({
            "id": ref, "uuid": str(uuids.uuid4()), "name": name, "bggId": bgg_id,
            "bggYear": 2000, "highestWins": highest_wins, "noPoints": no_points,
            "cooperative": cooperative, "usesTeams": False,
            "modificationDate": "2020-01-01 00:00:00",
        })  # fmt: skip
        return ref

    def play(
        self,
        game: int,
        date: str,
        scores: list[tuple[int, str, bool]] | list[tuple[int, str, bool, int, str]],
        minutes: int = 30,
        ignored: bool = False,
        uses_teams: bool = False,
        uuid: str | None = None,
    ) -> str:
        """A play of ``game`` at ``date``: each score (player, score string, winner[, seatOrder,
        team])."""
        play_uuid = uuid or str(uuids.uuid4())
        entries = []
        for entry in scores:
            player, score, winner, *rest = entry
            seat_order = rest[0] if rest else 0
            team = rest[1] if len(rest) > 1 else ""
            entries.append({
                "score": score, "winner": winner, "newPlayer": False, "startPlayer": False,
                "playerRefId": player, "rank": 0, "seatOrder": seat_order, "team": team,
            })  # fmt: skip
        self.plays.append({
            "uuid": play_uuid, "modificationDate": date, "entryDate": date, "playDate": date,
            "usesTeams": uses_teams, "durationMin": minutes, "ignored": ignored,
            "manualWinner": False, "rounds": 0, "locationRefId": 1, "gameRefId": game,
            "board": "", "scoringSetting": 0, "playerScores": entries,
        })  # fmt: skip
        return play_uuid

    def export(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "locations": [{"id": 1, "name": "Home", "uuid": str(uuids.uuid4())}],
            "games": self.games,
            "plays": self.plays,
            "userInfo": {"meRefId": 1},
            "challenges": [],
            "groups": [],
        }


def random_backup(
    plays: int, titles: int, names: int, seed: int = 1, start: datetime | None = None
) -> Backup:
    """``plays`` plays over ``titles`` games and ``names`` players, a few hours apart, with
    string scores, the highest winning (a tie shares the win), 2 to 5 players each."""
    rng = random.Random(seed)
    backup = Backup()
    people = [backup.player(f"Player {n:02d}") for n in range(1, names + 1)]
    games = [backup.game(f"Title {n:02d}", bgg_id=1000 + n) for n in range(1, titles + 1)]
    when = start or datetime(2015, 1, 1, 18, 0)
    for n in range(plays):
        when += timedelta(minutes=rng.randint(60, 600))
        table = rng.sample(people, rng.randint(2, 5))
        points = [rng.randint(0, 120) for _ in table]
        best = max(points)
        backup.play(
            rng.choice(games),
            when.strftime("%Y-%m-%d %H:%M:%S"),
            [
                (player, str(score), score == best)
                for player, score in zip(table, points, strict=True)
            ],
            minutes=rng.randint(10, 120),
            uuid=f"{seed:04d}-{n:06d}-{rng.getrandbits(32):08x}",
        )
    return backup


def bgg_xml(plays: list[dict[str, Any]]) -> bytes:
    """``<plays>`` as /xmlapi2/plays answers: each play a dict of id, date, length, name,
    objectid, incomplete and players (dicts of name, score, win, startposition)."""
    from xml.sax.saxutils import quoteattr

    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<plays username="group" userid="1" total="{len(plays)}" page="1">',
    ]
    for play in plays:
        lines.append(
            f'<play id="{play["id"]}" date="{play["date"]}" quantity="1"'
            f' length="{play.get("length", 0)}" incomplete="{play.get("incomplete", 0)}"'
            ' nowinstats="0" location="Home">'
        )
        lines.append(
            f'<item name={quoteattr(play["name"])} objecttype="thing"'
            f' objectid="{play.get("objectid", 0)}"><subtypes><subtype value="boardgame"/>'
            "</subtypes></item>"
        )
        lines.append("<players>")
        for player in play["players"]:
            lines.append(
                f'<player username="" userid="0" name={quoteattr(player["name"])}'
                f' startposition="{player.get("startposition", "")}" color=""'
                f' score="{player.get("score", "")}" new="0" rating="0"'
                f' win="{1 if player.get("win") else 0}"/>'
            )
        lines.append("</players></play>")
    lines.append("</plays>")
    return "\n".join(lines).encode()


def bare_backup(plays: int, titles: int = 40, names: int = 12, seed: int = 1) -> bytes:
    """A BG Stats export of bare plays, written compactly: each an id, a game, a date and two
    players, nothing the app adds (no scores, no seat order, no location): the most plays a byte
    of a backup can hold, the worst case of an import's memory to the file's size."""
    rng = random.Random(seed)
    when = datetime(2015, 1, 1, 18, 0)
    # More than 8,000 plays closer together: the last stays in the past (a play in the future is
    # refused, not imported).
    scale = min(1.0, 8000 / max(plays, 1))
    rows = []
    for _ in range(plays):
        when += timedelta(minutes=rng.randint(max(1, int(60 * scale)), int(600 * scale)))
        first, second = rng.sample(range(1, names + 1), 2)
        rows.append({
            "uuid": str(uuids.UUID(int=rng.getrandbits(128), version=4)),
            "gameRefId": rng.randint(1, titles), "playDate": when.strftime("%Y-%m-%d %H:%M:%S"),
            "playerScores": [{"playerRefId": first}, {"playerRefId": second}],
        })  # fmt: skip
    export = {
        "players": [{"id": n, "name": f"Player {n:02d}"} for n in range(1, names + 1)],
        "games": [{"id": n, "name": f"Title {n:02d}"} for n in range(1, titles + 1)],
        "plays": rows,
    }
    return json.dumps(export, separators=(",", ":")).encode()


def bare_bgg_xml(plays: int, titles: int = 40, names: int = 12, seed: int = 1) -> bytes:
    """BoardGameGeek's plays XML of bare plays: each an id, a day, a game and two players,
    nothing else BoardGameGeek writes."""
    rng = random.Random(seed)
    day = datetime(2015, 1, 1)
    # More than 8,000 plays closer together, as in bare_backup.
    scale = min(1.0, 8000 / max(plays, 1))
    lines = ["<plays>"]
    for n in range(1, plays + 1):
        step = rng.randint(0, 1)
        if scale < 1 and rng.random() >= scale:
            step = 0
        day += timedelta(days=step)
        title = rng.randint(1, titles)
        first, second = rng.sample(range(1, names + 1), 2)
        lines.append(
            f'<play id="{10_000_000 + n}" date="{day:%Y-%m-%d}" quantity="1">'
            f'<item name="Title {title:02d}" objectid="{1000 + title}"/><players>'
            f'<player name="Player {first:02d}"/><player name="Player {second:02d}"/>'
            "</players></play>"
        )
    lines.append("</plays>")
    return "\n".join(lines).encode()
