"""A player's page: their games, newest first; their figures per game, ratings, usual opponents,
head to head with any name, and rating over time; the names that count as them, and "Same person
as…" (``static/same-as.js``).

A page is a person's: asked under any of their names, it shows the person (``service.players``),
their games under every name, and their figures, counted under the person."""

from __future__ import annotations

from typing import Any

from flask import render_template, request, url_for

from domain import game_names, get_game
from service.pages.blueprint import _store, pages, service
from service.pages.plots import counted, line_plot, shown_number
from service.pages.refusals import refuse_unknown_parameters, refused_with
from service.pages.results import result_words
from service.pages.stats import filter_words, head_to_head, page_filters, sent_filters
from service.players.people import could_be, known_names
from service.players.store import roster_of
from service.stats.api import two_people
from service.stats.ratings.reading import player_ratings, rating_history
from service.stats.reading import player_stats, versus_stats
from service.stats.schemas import PlayerStatsQuerySchema
from service.store.indexes import Place, played_at

# The games a player's page lists at a time, newest first.
PLAYER_GAMES = 10
# What the page takes besides the API's filters: the games are paged by ``cursor``; ``versus``
# names whom the head to head is with.
PLAYER_PAGE_PARAMETERS = ("cursor", "versus")


@pages.route("/players/<name:name>/view")
def player_view(name: str) -> str:
    """A player's games, newest first; their figures per game, ratings, usual opponents, head
    to head with any name (``?versus=``), and rating over time."""
    sent = sent_filters(request.args, PlayerStatsQuerySchema())
    form = {"sent": sent, "seat_counts": _every_seat_count(), "with_player": False}
    client, prefix = _store()
    roster = roster_of(client, prefix)
    # The person, whichever of their names the address gives.
    name = roster.player_of(name)
    opponent = request.args.get("versus", "")
    versus_form = {"opponent": opponent, "names": known_names(client, prefix)}
    with refused_with("player.html", name=name, names=[name], form=form, versus_form=versus_form):
        refuse_unknown_parameters(
            request.args, [*PlayerStatsQuerySchema().fields, *PLAYER_PAGE_PARAMETERS]
        )
        filters = page_filters(sent, PlayerStatsQuerySchema())
        if opponent:
            name, opponent = two_people(name, opponent)
    ratings = player_ratings(client, prefix, name)
    return render_template(
        "player.html",
        name=name,
        names=roster.names_of(name),
        could_be=could_be(client, prefix, roster, name),
        form=form,
        versus_form=versus_form,
        filtered=filter_words(filters),
        figures=player_stats(client, prefix, name, filters),
        ratings=ratings,
        duels=head_to_head(client, prefix, name, filters),
        versus=versus_stats(client, prefix, name, opponent, filters) if opponent else None,
        histories={
            game: rating_plot(rating_history(client, prefix, name, game)) for game in ratings
        },
        # The pager keeps the filters and the head to head shown.
        **player_games(
            name, roster.names_of(name), {**sent, **({"versus": opponent} if opponent else {})}
        ),
    )


def player_games(name: str, names: list[str], kept: dict[str, str]) -> dict[str, Any]:
    """A page of the games the person ``name`` played under any of their ``names``, newest
    first (GET /games?player=NAME's listing and cursor, one per name, merged), each with its
    result in words; and the addresses of the next page and the first, which keep the parameters
    ``kept``."""
    # As on the index, a cursor that is not one shows the first page.
    cursor = Place.from_cursor(request.args.get("cursor"))
    found, next_place = games_of_names(names, cursor)

    def address(**page: Any) -> str:
        return url_for("pages.player_view", name=name, _anchor="played-heading", **kept, **page)

    return {
        "played": [
            {"record": record, "result": result_words(record, _seated_as(record, names, name))}
            for record in found
        ],
        "older_games": address(cursor=next_place.cursor()) if next_place is not None else None,
        "newest_games": address() if cursor is not None else None,
    }


def games_of_names(names: list[str], cursor: Place | None) -> tuple[list[Any], Place | None]:
    """A page of the games any of ``names`` played, newest first from ``cursor``: each name's
    listing is ordered by the same places, so the pages of each merge into one."""
    pages = [
        service().list(game="", status="", player=one, limit=PLAYER_GAMES, cursor=cursor)
        for one in names
    ]
    placed = {
        record.id: (Place(played_at(record), record.id), record)
        for found, _ in pages
        for record in found
    }
    newest = sorted(placed.values(), key=lambda item: (item[0].played, item[0].id), reverse=True)
    shown = newest[:PLAYER_GAMES]
    more = len(newest) > PLAYER_GAMES or any(following is not None for _, following in pages)
    return [record for _, record in shown], shown[-1][0] if more and shown else None


def _seated_as(record: Any, names: list[str], player: str) -> str:
    """The name ``player`` sat at ``record`` under (one of their ``names``)."""
    return next((one for one in record.players if one in names), player)


def _every_seat_count() -> list[int]:
    rules = [get_game(name) for name in game_names()]
    return list(range(min(r.min_players for r in rules), max(r.max_players for r in rules) + 1))


def rating_plot(history: list[dict[str, Any]]) -> dict[str, Any]:
    """A player's rating after each of their games of one game, as a line plot."""
    points = [(point["finished_at"], point["rating"]) for point in history]
    ratings = [rating for _, rating in points]
    summary = (
        f"{counted(len(points), 'game')} rated: {shown_number(round(ratings[0], 2))} after the"
        f" first, {shown_number(round(ratings[-1], 2))} after the last, highest"
        f" {shown_number(round(max(ratings), 2))}"
        if points
        else "no game rated"
    )
    plot = line_plot(points, x_title="games rated, oldest first", y_title="rating", summary=summary)
    # Each point names the game after which the rating stood.
    for number, (shape, point) in enumerate(zip(plot["points"], history, strict=True), start=1):
        shape["game_id"] = point["game_id"]
        shape["title"] = (
            f"after game {number} (finished {point['finished_at'][:16].replace('T', ' ')} UTC):"
            f" rating {shape['shown']}"
        )
    return plot
