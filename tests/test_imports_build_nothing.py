"""Importing a module builds nothing: no app, no rating model, nothing the importer did not ask for.

Each import runs in a fresh interpreter, so that what the suite itself imported does not count.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def modules_loaded_by(statement: str) -> set[str]:
    probe = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


@pytest.mark.parametrize(
    "module",
    ["service.store.chain", "service.store.events", "workers.archive", "service.stats.counting"],
)
def test_the_store_and_the_workers_load_without_the_web_app(module: str) -> None:
    loaded = modules_loaded_by(f"import {module}")
    assert not {"flask", "flask_smorest", "service.app", "service.api.views"} & loaded


def test_the_rating_model_is_made_when_a_game_is_first_rated_not_at_import() -> None:
    made = "import service.stats.ratings.model as r\nprint(r.model.cache_info().currsize)\n"
    probe = subprocess.run(
        [sys.executable, "-c", made], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert probe.stdout.strip() == "0"
