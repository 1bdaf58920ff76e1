"""A game's (or title's) statistics as plots, and its leaderboard.

The statistics are drawn here, as SVG, from the same projections as ``GET /stats/<game>``; the
leaderboard is ``GET /ratings/{game}``'s. What the forms send is read by ``service.pages.stats``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import current_app, render_template, request, url_for

from domain.errors import UnknownGameError
from domain.game import Game
from service.errors import NotFoundError
from service.pages.blueprint import _store, pages, service
from service.pages.plots import bar_plot, counted, shown_number
from service.pages.refusals import refuse_unknown_parameters, refused_with
from service.pages.stats import filter_words, loaded_query, page_filters, sent_filters
from service.stats.ratings.reading import leaderboard
from service.stats.reading import game_stats
from service.stats.schemas import GameStatsQuerySchema, RatingsQuerySchema
from service.stats.titles import counts_played, rules_for

# The leaders and the recent games a title's page opens on.
LEADERS = 5
RECENT = 5


def _known_game(name: str) -> Game[Any]:
    """The game (or title) a statistics page names in its path: no such game is a 404 page
    naming the closest."""
    client, prefix = _store()
    try:
        return rules_for(client, prefix, name)
    except UnknownGameError as error:
        raise NotFoundError(error.message, error.details) from None


@pages.route("/stats/<game>/view")
def stats_view(game: str) -> str:
    """A game's statistics as plots, over the games the filters (the API's) let through."""
    rules = _known_game(game)
    sent = sent_filters(request.args, GameStatsQuerySchema())
    form = {
        "sent": sent,
        "seat_counts": list(counts_played(rules)),
        "with_player": True,
    }
    with refused_with("stats.html", game=game, form=form):
        refuse_unknown_parameters(request.args, GameStatsQuerySchema().fields)
        filters = page_filters(sent, GameStatsQuerySchema(), rules)
    client, prefix = _store()
    figures = game_stats(client, prefix, game, filters, rules)
    # A player's link keeps the filters their page takes too.
    carried = {name: value for name, value in sent.items() if name != "player"}
    # The page opens on what people look for first: who leads, and the last games played.
    board, _ = leaderboard(client, prefix, game, LEADERS, 0)
    recent, _ = service().list(game=game, status="", player="", limit=RECENT, cursor=None)
    return render_template(
        "stats.html",
        game=game,
        leaders=[{"rank": number, **row} for number, row in enumerate(board, start=1)],
        recent=recent,
        # A title whose games carry no number: no score figure at all (no chart, no mean).
        has_points=figures["scores"]["distribution"] is not None or not figures["games"],
        form=form,
        filtered=filter_words(filters),
        carried=carried,
        figures=figures,
        to_count=current_app.extensions["tabletape.queue"].to_count(),
        **stats_plots(figures),
    )


def stats_plots(figures: dict[str, Any]) -> dict[str, Any]:
    """The three plots of a game's statistics, and its players best first."""
    seats = figures["seat_advantage"]
    # No distribution: games were played and no number written in any (a title without points).
    distribution = figures["scores"]["distribution"]
    score_bars = score_histogram(distribution or {})
    # Seats counted from 1, as people count them: the first seat is the first player.
    seat_bars = [(f"seat {seat}", wins) for seat, wins in enumerate(seats["wins_by_seat"], 1)]
    length_bars = [(_length_label(name), value) for name, value in figures["length"].items()]
    return {
        "score_plot": bar_plot(
            score_bars,
            x_title="final score",
            y_title="seats",
            summary="; ".join(
                f"score {label}: {counted(seats, 'seat')}" for label, seats in score_bars
            )
            or ("no score written" if distribution is None else "no game finished yet"),
        ),
        "seat_plot": bar_plot(
            seat_bars,
            x_title="seat",
            y_title="wins",
            totals=seats["games_by_seat"],
            summary="; ".join(
                f"{label}: {counted(wins, 'win')} in {counted(games, 'game')}"
                for (label, wins), games in zip(seat_bars, seats["games_by_seat"], strict=True)
            )
            or "no game finished yet",
        ),
        "length_plot": bar_plot(
            length_bars,
            x_title="mean per game",
            y_title="",
            horizontal=True,
            summary="; ".join(f"{label}: {shown_number(value)}" for label, value in length_bars),
        ),
        "players": sorted(figures["players"].items(), key=lambda item: (-item[1]["wins"], item[0])),
    }


@pages.route("/ratings/<game>/view")
def ratings_view(game: str) -> str:
    """A game's leaderboard: GET /ratings/{game}, paged by its cursor."""
    _known_game(game)
    sent = sent_filters(request.args, RatingsQuerySchema())
    with refused_with("ratings.html", game=game):
        refuse_unknown_parameters(request.args, RatingsQuerySchema().fields)
        query = loaded_query(
            sent, RatingsQuerySchema(), "This page of the leaderboard cannot be shown"
        )
    limit, offset = query["limit"], int(query.get("cursor") or 0)
    kept = {"limit": limit} if "limit" in sent else {}
    client, prefix = _store()
    board, following = leaderboard(client, prefix, game, limit, offset)
    return render_template(
        "ratings.html",
        game=game,
        board=[{"rank": offset + number, **row} for number, row in enumerate(board, start=1)],
        next_page=url_for("pages.ratings_view", game=game, cursor=following, **kept)
        if following is not None
        else None,
        first_page=url_for("pages.ratings_view", game=game, **kept) if offset else None,
    )


def score_histogram(distribution: dict[str, int]) -> list[tuple[str, int]]:
    """The score plot's bars: every whole score from the lowest made to the highest, those no one
    made at 0 (a gap is seen, not closed up); scores with a fraction as they are."""
    values = {_score_label(score): count for score, count in distribution.items()}
    whole = [int(label) for label in values if re.fullmatch(r"-?\d+", label)]
    if len(whole) != len(values) or not whole or max(whole) - min(whole) > 200:
        return list(values.items())
    return [(str(score), values.get(str(score), 0)) for score in range(min(whole), max(whole) + 1)]


def _score_label(score: str) -> str:
    value = json.loads(score)
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _length_label(name: str) -> str:
    return name.removeprefix("mean_").replace("_", " ")
