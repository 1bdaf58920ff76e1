"""A game night made in the tests: plays in BG Stats' shape, dated in UTC, imported over HTTP.

Friday 27 November 2026 in Paris (UTC+1) runs from 05:00 UTC that day to 05:00 UTC on the 28th:
six games, past midnight, with a win, a shared win, a cooperative loss and a game with no winner
marked; one game on Saturday's evening; one a week before.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.support.history import Backup

FRIDAY = "2026-11-27"
SATURDAY = "2026-11-28"
WEEK_BEFORE = "2026-11-20"


def import_a_game_night(client: FlaskClient) -> None:
    backup = Backup()
    chloe, alice, bruno, dev = (backup.player(n) for n in ("Chloé", "Alice", "Bruno", "Dev"))
    azul = backup.game("Azul", bgg_id=230802)
    codenames = backup.game("Codenames")
    pandemic = backup.game("Pandemic", cooperative=True)
    hearts = backup.game("Hearts", highest_wins=False)
    werewolf = backup.game("Werewolf", no_points=True)
    friday = [
        (azul, "19:00", [(chloe, "61", True), (alice, "48", False), (bruno, "52", False)]),
        (azul, "20:00", [(alice, "70", True), (bruno, "70", True), (chloe, "40", False)]),
        (codenames, "21:00", [(chloe, "1", True), (dev, "0", False)]),
        (pandemic, "22:00", [(alice, "", False), (bruno, "", False), (dev, "", False)]),
        (hearts, "23:30", [(chloe, "12", True), (alice, "40", False), (dev, "33", False)]),
    ]
    for game, at, scores in friday:
        backup.play(game, f"2026-11-27 {at}:00", scores, minutes=40)
    # 01:30 in Paris: still Friday's evening; no winner marked.
    backup.play(werewolf, "2026-11-28 00:00:00", [(bruno, "", False), (dev, "", False)])
    backup.play(azul, "2026-11-28 05:00:00", [(alice, "50", True), (bruno, "40", False)])
    backup.play(azul, "2026-11-20 19:00:00", [(alice, "50", True), (bruno, "40", False)])
    answer = client.post("/imports/bgstats", json=backup.export())
    assert answer.status_code == 200, answer.json
    assert not answer.json["skipped"], answer.json
