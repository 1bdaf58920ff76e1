"""Anyone can recompute a round: these tables were paired once and must come out the same from
the same inputs on any machine and with any later version of the code. If a change of the rules
moves them, tournaments already played would no longer verify: that change needs a new
RULES_VERSION (domain/tournaments), and these tables stay the ones of the old version."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from domain.tournaments import RULES_VERSION
from tests.domain.tournaments.helpers import names, play_out

ROOT = Path(__file__).resolve().parents[3]

RECORDED = {
    ("swiss", 9, 5, (2, 2)): [
        "E-C D-B H-F I-G bye A",
        "A-E B-H G-D F-I bye C",
        "E-F D-A H-G C-B bye I",
        "F-D H-E B-A I-C bye G",
        "C-F E-I D-H G-A bye B",
    ],
    ("round_robin", 6, 5, (2, 2)): [
        "C-E D-A F-B",
        "A-C E-B D-F",
        "C-B A-F E-D",
        "F-C B-D A-E",
        "C-D F-E B-A",
    ],
    ("pods", 11, 3, (3, 4)): [
        "K-G-A-I E-H-D-F B-C-J",
        "I-D-E-A K-B-C-J F-H-G",
        "E-F-I-D C-J-A-B G-H-K",
    ],
}


def written(round_tables: list[list[str]], byes: tuple[str, ...]) -> str:
    text = " ".join("-".join(name[-1] for name in table) for table in round_tables)
    return text + "".join(f" bye {name[-1]}" for name in byes)


def test_the_rules_version_is_the_one_these_tables_were_paired_by() -> None:
    assert RULES_VERSION == "1"


@pytest.mark.parametrize("case", list(RECORDED))
def test_the_same_inputs_give_the_recorded_tables(
    case: tuple[str, int, int, tuple[int, int]],
) -> None:
    format, count, rounds, size = case
    history = play_out(format, names(count), rounds, seed=2026, results_seed=7, table_size=size)
    assert [
        written([list(t.players) for t in one.tables], one.byes) for one in history
    ] == RECORDED[case]


PAIR_IN_A_FRESH_PROCESS = """
from tests.domain.tournaments.helpers import names, play_out
for fmt, size in (("swiss", (2, 2)), ("pods", (3, 5)), ("round_robin", (2, 2))):
    for one in play_out(fmt, names(41), 4, seed=99, results_seed=3, table_size=size):
        print([t.players for t in one.tables], one.byes)
"""


def test_the_tables_do_not_depend_on_the_order_python_gives_sets_of_names() -> None:
    # Names are strings: their hashes, so the order of any set of them, change with
    # PYTHONHASHSEED from one process to the next. The tables must not.
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        done = subprocess.run(
            [sys.executable, "-c", PAIR_IN_A_FRESH_PROCESS],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1 and "Player" in outputs.pop()


# Events past 100 players pair through the matching's window (domain/tournaments/swiss.py):
# their tables are kept as a digest of the rounds written out.
RECORDED_DIGESTS = {
    ("swiss", 130, 6, (2, 2)): "83b1e5446409d9b6665ab7a2629cce267936adc2680e761d7f9aff5a39d5fc3d",
    ("pods", 130, 4, (3, 5)): "b855c197abcc3399b39c86428c0db9da7ffb055e932384e766683e6d7c9b5db4",
}


@pytest.mark.parametrize("case", list(RECORDED_DIGESTS))
def test_a_large_event_gives_the_recorded_tables(
    case: tuple[str, int, int, tuple[int, int]],
) -> None:
    format, count, rounds, size = case
    history = play_out(format, names(count), rounds, seed=2026, results_seed=7, table_size=size)
    text = "\n".join(
        " ".join("-".join(t.players) for t in one.tables) + " bye " + ",".join(one.byes)
        for one in history
    )
    assert hashlib.sha256(text.encode()).hexdigest() == RECORDED_DIGESTS[case]
