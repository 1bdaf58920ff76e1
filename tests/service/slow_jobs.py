"""Archive jobs that stop at a chosen point, so a test can kill the worker exactly there.

Run by a real worker process: the job marks a file when it reaches the point, then sleeps until
the test kills it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from unittest import mock

from service.stats import counting
from service.stats.ratings import writing as ratings
from service.store.events import EventStore
from workers import archive


def archive_then_hang(game_id: str, *, hang_before: str, marker: str, **job_args: Any) -> str:
    """The real archive job, hanging when it is about to ``hang_before`` ("count", "rate" or
    "mark")."""

    def hang(*args: Any, **kwargs: Any) -> None:
        Path(marker).write_text("reached")
        time.sleep(120)

    target = {
        "count": mock.patch.object(counting, "count_many", hang),
        "rate": mock.patch.object(ratings, "rate_games", hang),
        "mark": mock.patch.object(EventStore, "mark_archived", hang),
    }[hang_before]
    with target:
        return archive.archive_game(game_id, **job_args)
