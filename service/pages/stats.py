"""What the statistics pages read besides the API's figures: their filters, as a form sends them,
and a player's usual opponents.

The filters are the API's (``service.stats.schemas``, ``service.stats.api``), read the same way,
so that a page and ``GET /stats/{game}`` never disagree on what a filter means. One difference: a
form sends its empty fields (``players=&since=``), which mean "no filter" here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from domain.game import Game
from service.errors import InvalidRequestError
from service.stats.api import filters_of
from service.stats.reading import StatsFilter, game_stats, stats_games, versus_stats
from service.stats.titles import rules_for, titles
from service.store.connection import StoreClient

FILTERS_FAIL = "These filters cannot be applied"
# How many opponents a player's page shows head to head.
USUAL_OPPONENTS = 5


def sent_filters(args: Mapping[str, str], schema: Schema) -> dict[str, str]:
    """The filters a page's query sends, as text: the fields of the API's ``schema`` that are
    not empty (what else the query holds is left alone)."""
    return {name: args[name] for name in schema.fields if args.get(name)}


def loaded_query(sent: Mapping[str, str], schema: Schema, failing: str) -> dict[str, Any]:
    """``sent`` read by the API's ``schema``; InvalidRequestError, whose message starts with
    ``failing`` and names each field at fault, for a malformed query."""
    try:
        query: dict[str, Any] = schema.load(dict(sent))
    except ValidationError as error:
        reasons = error.normalized_messages()
        raise InvalidRequestError(
            f"{failing}: " + "; ".join(f"{name}: {_first(why)}" for name, why in reasons.items()),
            reasons,
        ) from None
    return query


def page_filters(
    sent: Mapping[str, str], schema: Schema, rules: Game[Any] | None = None
) -> StatsFilter:
    """The filters ``sent``, read and checked as the API reads and checks them (the seat counts
    by ``rules``): InvalidRequestError, with a message to show, for a malformed one."""
    query = loaded_query(sent, schema, FILTERS_FAIL)
    try:
        return filters_of(query, rules)
    except InvalidRequestError as error:  # a seat count the game is not played by
        raise InvalidRequestError(f"{FILTERS_FAIL}: {error.message}", error.details) from None


def filter_words(filters: StatsFilter) -> str:
    """The filters in words: ``games of 3 players; games Ana played in; finished ...``."""
    parts = []
    if filters.players is not None:
        parts.append(f"games of {filters.players} players")
    if filters.player is not None:
        parts.append(f"games {filters.player} played in")
    since, until = filters.days.since, filters.days.until
    if since and until:
        parts.append(f"finished from {since} to {until} (UTC)")
    elif since:
        parts.append(f"finished on {since} (UTC) or later")
    elif until:
        parts.append(f"finished on {until} (UTC) or earlier")
    return "; ".join(parts)


def _first(reason: Any) -> str:
    return str(reason[0]) if isinstance(reason, list) and reason else str(reason)


def usual_opponents(
    client: StoreClient, prefix: str, name: str, filters: StatsFilter, limit: int = USUAL_OPPONENTS
) -> list[tuple[str, int]]:
    """The players ``name`` met in the most games (of those ``filters`` lets through), with how
    many: every game's figures over the games ``name`` played in name everyone at those tables.
    Ties go by name, so the choice is the same on every reload."""
    met: dict[str, int] = {}
    with_player = StatsFilter(players=filters.players, player=name, days=filters.days)
    for game in stats_games(client, prefix):
        rules = rules_for(client, prefix, game)
        for other, play in game_stats(client, prefix, game, with_player, rules)["players"].items():
            if other != name:
                met[other] = met.get(other, 0) + play["games"]
    return sorted(met.items(), key=lambda item: (-item[1], item[0]))[:limit]


def head_to_head(
    client: StoreClient, prefix: str, name: str, filters: StatsFilter
) -> list[dict[str, Any]]:
    """``name`` against each usual opponent: GET /players/{a}/versus/{b}'s figures."""
    return [
        versus_stats(client, prefix, name, other, filters)
        for other, _ in usual_opponents(client, prefix, name, filters)
    ]


def stats_menu(client: StoreClient, prefix: str) -> list[tuple[str, str]]:
    """The statistics menu: each game's key and name, the games with rules first, then the
    titles played (most games first), as the players know them."""
    played = {title["key"]: title["title"] for title in titles(client, prefix)}
    return [(key, played.get(key, key.title())) for key in stats_games(client, prefix)]
