"""A club's history in which one person plays under three names: "Chloe" at the table, "Chloé"
in BG Stats, "chloe.b" online (the roster's tests, of the API and of the pages)."""

from __future__ import annotations

from typing import Any

from tests.support.history import Backup

CHLOE = ("Chloe", "Chloé", "chloe.b")


def club_history(chloe: tuple[str, str, str] = CHLOE) -> dict[str, Any]:
    """Azul and Carcassonne over three months, Chloé under three spellings (or one, to compare
    with): Ana, Ben and Dan play with her, never two of her names at one table."""
    backup = Backup()
    ana, ben, dan = (backup.player(name) for name in ("Ana", "Ben", "Dan"))
    refs = {name: backup.player(name) for name in dict.fromkeys(chloe)}
    at_table, in_app, online = (refs[name] for name in chloe)
    azul = backup.game("Azul", bgg_id=230802)
    carcassonne = backup.game("Carcassonne", bgg_id=822)
    backup.play(
        azul,
        "2025-01-10 20:00:00",
        [(ana, "67", False), (at_table, "70", True), (ben, "40", False)],
    )
    backup.play(
        azul, "2025-01-17 20:00:00", [(ana, "55", True), (in_app, "50", False), (dan, "45", False)]
    )
    backup.play(carcassonne, "2025-02-01 20:00:00", [(online, "90", True), (ben, "80", False)])
    backup.play(
        azul, "2025-02-10 20:00:00", [(ana, "60", False), (in_app, "75", True), (ben, "61", False)]
    )
    backup.play(
        azul, "2025-03-01 20:00:00", [(ana, "66", True), (at_table, "66", True), (dan, "12", False)]
    )
    backup.play(azul, "2025-03-08 20:00:00", [(ana, "66", True), (ben, "50", False)])
    return backup.export()  # fmt: skip
