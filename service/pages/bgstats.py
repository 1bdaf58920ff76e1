""" "Add to BG Stats" on a finished game's page: the link the BG Stats app documents for plays
from other apps and websites (bgstatsapp.com, "Push plays to BG Stats from other apps or
websites"): ``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``.

The JSON names the play (``sourceName``, and ``sourcePlayId``: the game's id here, stable, so
that the app knows the play again), its day and length (``playDate`` as the app writes it,
``durationMin``), the game (``name``, ``bggId``, ``highestWins``, ``noPoints``,
``sourceGameId``) and the players (``name``, ``score``, ``winner``, ``rank``, ``sourcePlayerId``).
The app matches the game and players to its own and saves the play: a group that keeps using the
app loses nothing recorded here.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from urllib.parse import quote

from domain import get_game
from service.store.records import GameRecord

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Tabletape"


def _moment(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
    except ValueError:
        return None


def play_data(record: GameRecord) -> dict[str, Any] | None:
    """The play the BG Stats app is sent for a finished game; None for a game without a result."""
    result = record.result
    if not result:
        return None
    options = record.options or {}
    # A game of a title (a score sheet of "Azul") is sent as that title, else as its game.
    title_of = get_game(record.game).title(options)
    title = title_of.name if title_of is not None else record.game.title()
    bgg_id = title_of.bgg_id if title_of is not None else None
    scoring = options.get("scoring", "highest")
    started, finished = _moment(record.created_at), _moment(record.finished_at)
    minutes = round((finished - started).total_seconds() / 60) if started and finished else 0
    winners = set(result.get("winners") or [])
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    players = []
    for seat, name in enumerate(record.players):
        player: dict[str, Any] = {
            "name": name,
            "winner": seat in winners,
            "sourcePlayerId": name,
            "startPlayer": seat == 0,
        }
        # A score never written (null) is sent as none, not as a 0.
        if scoring != "none" and seat < len(scores) and scores[seat] is not None:
            player["score"] = scores[seat]
        if seat < len(ranks):
            player["rank"] = ranks[seat]
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.id,
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S") if started else "",
        "durationMin": max(0, minutes),
        "game": {
            "name": title,
            "bggId": bgg_id or 0,
            "highestWins": scoring != "lowest",
            "noPoints": scoring == "none",
            "sourceGameId": title_of.key if title_of is not None else record.game,
        },
        "players": players,
    }


def bgstats_link(record: GameRecord) -> str | None:
    """The "Add to BG Stats" link of a finished game; None for a game without a result."""
    data = play_data(record)
    if data is None:
        return None
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY + quote(text, safe="")
