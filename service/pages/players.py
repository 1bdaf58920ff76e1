"""A player's page: their games, newest first; their figures per game, ratings, usual opponents,
head to head with any name, and rating over time."""

from __future__ import annotations

from typing import Any

from flask import render_template, request, url_for

from domain import game_names, get_game
from service.pages.blueprint import _store, pages, service
from service.pages.plots import counted, line_plot, shown_number
from service.pages.refusals import refuse_unknown_parameters, refused_with
from service.pages.results import result_words
from service.pages.stats import filter_words, head_to_head, page_filters, sent_filters
from service.stats.api import two_names
from service.stats.ratings.reading import player_ratings, rating_history
from service.stats.reading import known_players, player_stats, versus_stats
from service.stats.schemas import PlayerStatsQuerySchema
from service.store.indexes import Place

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
    opponent = request.args.get("versus", "")
    versus_form = {"opponent": opponent, "names": known_players(client, prefix)}
    with refused_with("player.html", name=name, form=form, versus_form=versus_form):
        refuse_unknown_parameters(
            request.args, [*PlayerStatsQuerySchema().fields, *PLAYER_PAGE_PARAMETERS]
        )
        filters = page_filters(sent, PlayerStatsQuerySchema())
        if opponent:
            two_names(name, opponent)
    ratings = player_ratings(client, prefix, name)
    return render_template(
        "player.html",
        name=name,
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
        **player_games(name, {**sent, **({"versus": opponent} if opponent else {})}),
    )


def player_games(name: str, kept: dict[str, str]) -> dict[str, Any]:
    """A page of the games ``name`` played, newest first (GET /games?player=NAME's listing and
    cursor), each with its result in words; and the addresses of the next page and the first,
    which keep the parameters ``kept``."""
    # As on the index, a cursor that is not one shows the first page.
    cursor = Place.from_cursor(request.args.get("cursor"))
    found, next_place = service().list(
        game="", status="", player=name, limit=PLAYER_GAMES, cursor=cursor
    )

    def address(**page: Any) -> str:
        return url_for("pages.player_view", name=name, _anchor="played-heading", **kept, **page)

    return {
        "played": [{"record": record, "result": result_words(record, name)} for record in found],
        "older_games": address(cursor=next_place.cursor()) if next_place is not None else None,
        "newest_games": address() if cursor is not None else None,
    }


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
