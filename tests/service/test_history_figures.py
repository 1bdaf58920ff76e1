"""A club's real-looking history, imported from a BG Stats backup, read back as the figures a person
counts by hand from the same plays: ties rated as ties, a score never written is no zero, and
nobody wins what nobody won (the import, the archive job and the statistics, on the real Redis)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.store.connection import StoreClient
from tests.support.history import Backup
from tests.support.workers import drain


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """On one Redis and on a Redis Cluster alike."""
    return store_redis


def club_history() -> dict[str, Any]:
    """Eight plays of three titles by Ana, Ben, Chloé and Dan, as the app keeps them."""
    backup = Backup()
    ana, ben, chloe, dan = (backup.player(name) for name in ("Ana", "Ben", "Chloé", "Dan"))
    azul = backup.game("Azul", bgg_id=230802)
    carcassonne = backup.game("Carcassonne", bgg_id=822)
    codenames = backup.game("Codenames", no_points=True)
    # Azul: a tie for first; then a blank score, no winner marked (the totals decide); then a
    # play nobody scored nor won.
    backup.play(azul, "2025-01-10 20:00:00",
                [(ana, "67", True), (ben, "67", True), (chloe, "58", False), (dan, "40", False)])
    backup.play(azul, "2025-02-10 20:00:00",
                [(ana, "50", False), (ben, "61", False), (chloe, "", False), (dan, "45", False)])
    backup.play(azul, "2025-03-10 20:00:00",
                [(ana, "", False), (ben, "", False), (chloe, "", False), (dan, "", False)])
    # Carcassonne: Ana's score never written in the last play.
    backup.play(carcassonne, "2025-01-15 20:00:00", [(ana, "117", True), (ben, "90", False)])
    backup.play(carcassonne, "2025-02-15 20:00:00", [(ana, "120", False), (ben, "130", True)])
    backup.play(carcassonne, "2025-03-15 20:00:00", [(ana, "", False), (ben, "80", True)])
    # Codenames, a game without points: two winners, then nobody marked.
    backup.play(codenames, "2025-01-20 20:00:00",
                [(ana, "", True), (ben, "", True), (chloe, "", False), (dan, "", False)])
    backup.play(codenames, "2025-02-20 20:00:00",
                [(ana, "", False), (ben, "", False), (chloe, "", False), (dan, "", False)])
    return backup.export()  # fmt: skip


@pytest.fixture
def imported(app: Flask, client: FlaskClient) -> None:
    response = client.post("/imports/bgstats", json=club_history())
    assert response.status_code == 200, response.json
    assert response.json["imported"] == 8 and response.json["skipped"] == []
    drain(app)


@pytest.mark.usefixtures("imported")
def test_each_titles_figures_are_those_counted_by_hand(client: FlaskClient) -> None:
    azul = client.get("/stats/azul").json
    assert azul["games"] == 3
    # The tie's two winners win; the totals decide the second play (Ben, 61); nobody the third.
    assert azul["wins"] == {"Ana": 1, "Ben": 2, "Chloé": 0, "Dan": 0}
    # Seven numbers written: 67, 67, 58, 40, then 50, 61, 45; Chloé's blank and the third play
    # are no numbers.
    assert azul["scores"]["mean"] == pytest.approx(388 / 7)
    assert azul["scores"]["distribution"] == {
        "40": 1, "45": 1, "50": 1, "58": 1, "61": 1, "67": 2
    }  # fmt: skip
    means = {name: figures["mean_score"] for name, figures in azul["players"].items()}
    assert means == {"Ana": 58.5, "Ben": 64, "Chloé": 58, "Dan": 42.5}
    assert {name: figures["games"] for name, figures in azul["players"].items()} == {
        "Ana": 3, "Ben": 3, "Chloé": 3, "Dan": 3
    }  # fmt: skip

    carcassonne = client.get("/stats/carcassonne").json
    assert carcassonne["games"] == 3
    assert carcassonne["wins"] == {"Ana": 1, "Ben": 2}
    assert carcassonne["players"]["Ana"]["mean_score"] == 118.5  # (117 + 120) / 2, not / 3
    assert carcassonne["players"]["Ben"]["mean_score"] == 100  # (90 + 130 + 80) / 3

    codenames = client.get("/stats/codenames").json
    assert codenames["games"] == 2
    assert codenames["wins"] == {"Ana": 1, "Ben": 1, "Chloé": 0, "Dan": 0}
    assert codenames["scores"] == {"mean": None, "distribution": None}


@pytest.mark.usefixtures("imported")
def test_each_players_figures_are_those_counted_by_hand(client: FlaskClient) -> None:
    ana = client.get("/players/Ana/stats").json
    assert ana["games"] == 8 and ana["wins"] == 3
    # Points of Azul, Carcassonne and a game without points are never averaged together.
    assert "mean_score" not in ana
    assert ana["by_game"]["carcassonne"]["mean_score"] == 118.5
    assert ana["by_game"]["codenames"]["mean_score"] is None
    chloe = client.get("/players/Chloé/stats").json
    assert chloe["games"] == 5 and chloe["wins"] == 0
    versus = client.get("/players/Ana/versus/Ben").json
    # A shared win counts for each: Azul's tie, and Codenames' two winners.
    assert versus["games"] == 8 and versus["wins"] == {"Ana": 3, "Ben": 5}


@pytest.mark.usefixtures("imported")
def test_the_ratings_keep_the_tie_and_rate_no_game_nobody_won(client: FlaskClient) -> None:
    azul = {row["player"]: row for row in client.get("/ratings/azul").json["ratings"]}
    # Rated by the two plays someone won: the third, nobody's, rates no one.
    assert {name: row["games"] for name, row in azul.items()} == {
        "Ana": 2, "Ben": 2, "Chloé": 2, "Dan": 2
    }  # fmt: skip
    # Third behind a tie for first, Chloé never ends above the joint winners of that play: Ben
    # won the next play too, and Ana beat her there.
    assert azul["Chloé"]["rating"] < azul["Ana"]["rating"] < azul["Ben"]["rating"]
    codenames = {row["player"]: row for row in client.get("/ratings/codenames").json["ratings"]}
    assert {name: row["games"] for name, row in codenames.items()} == {
        "Ana": 1, "Ben": 1, "Chloé": 1, "Dan": 1
    }  # fmt: skip
    assert codenames["Ana"]["mu"] == codenames["Ben"]["mu"] > codenames["Chloé"]["mu"]
