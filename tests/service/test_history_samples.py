"""Real BG Stats backups (anonymized, in tests/samples/history/) imported whole on the real
Redis: every play imported or passed over (``ignored``), none skipped, and a second import finds
every one already here."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

SAMPLES = Path(__file__).parent.parent / "samples" / "history"


@pytest.mark.parametrize(
    ("sample", "plays", "ignored"),
    [("bgstats-2-sums-no-points-ignored.json", 217, 11),
     ("bgstats-4-decimal-comma-no-winner.json", 596, 0)],
)  # fmt: skip
def test_a_real_backup_with_sums_and_decimal_commas_comes_in_whole(
    client: FlaskClient, sample: str, plays: int, ignored: int
) -> None:
    body = (SAMPLES / sample).read_bytes()
    headers = {"Content-Type": "application/json"}
    first = client.post("/imports/bgstats", data=body, headers=headers).json
    assert first["skipped"] == []
    assert first["imported"] + ignored == plays
    again = client.post("/imports/bgstats", data=body, headers=headers).json
    assert again["imported"] == 0 and again["already"] == first["imported"]
    assert again["differs"] == [] and again["skipped"] == []
