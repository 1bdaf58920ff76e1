"""An import's memory stays within 4x its file (api.md, Bringing history in), even for a file of
bare plays, which holds the most plays to the byte: reading its plays (which the import then
holds, to import them in order of play) takes under 3x the file, beyond the file's own bytes.

Measured with tracemalloc (Python's own count of what is allocated), not the process's memory,
so that the machine and its load do not move it. Before the readers shared what a file repeats
(seats, titles, days) and parsed in small chunks, these files took 4.0x (BG Stats) and 4.4x
(BoardGameGeek) to read.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from service.imports import Play, bgg
from service.imports.backup_file import read_backup
from tests.support.history import bare_backup, bare_bgg_xml

PLAYS = 8000
# What reading may take beyond the file: the import holds the file's bytes besides (1x).
MOST = 3.0


def _read_backup(data: bytes) -> list[Any]:
    return list(read_backup(data))


READERS: dict[str, tuple[Callable[[int], bytes], Callable[[bytes], list[Any]]]] = {
    "bgstats": (lambda plays: bare_backup(plays, seed=7), _read_backup),
    "bgg": (lambda plays: bare_bgg_xml(plays, seed=7), bgg.read_plays),
}


@pytest.mark.parametrize("kind", sorted(READERS))
def test_reading_a_file_of_bare_plays_takes_under_3x_the_file(kind: str) -> None:
    make, read = READERS[kind]
    # A first small file: what any first read loads once (regular expressions, caches) is not
    # the file's.
    read(make(20))
    data = make(PLAYS)
    gc.collect()
    tracemalloc.start()
    try:
        found = read(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sum(1 for one in found if isinstance(one, Play)) == PLAYS
    assert peak < MOST * len(data), (
        f"reading {PLAYS} bare plays ({len(data)} bytes) took {peak / len(data):.2f}x the file"
    )


def test_a_play_logged_999_times_is_read_as_one_play_of_999_copies() -> None:
    # BoardGameGeek's quantity="999" in a play of some 200 bytes: made into 999 plays at once,
    # such plays took about 1,200x their file (each copy a play of its own, with its id).
    record = (
        '<play id="{n}" date="2020-06-01" quantity="999"><item name="Azul" objectid="230802"/>'
        '<players><player name="Ann" win="1"/><player name="Ben" win="0"/></players></play>'
    )

    def page(plays: int) -> bytes:
        return (
            '<?xml version="1.0" encoding="utf-8"?><plays username="ann">'
            + "".join(record.format(n=n) for n in range(1, plays + 1))
            + "</plays>"
        ).encode()

    bgg.read_plays(page(2))
    data = page(4000)
    gc.collect()
    tracemalloc.start()
    try:
        found = bgg.read_plays(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [one.copies for one in found if isinstance(one, Play)] == [999] * 4000
    assert peak < MOST * len(data), f"reading it took {peak / len(data):.2f}x the file"
