"""The archive: one gzip-compressed JSON document per finished game, under ARCHIVE_DIR.

A document holds the record's header, its events as stored (with seq, at and hash), the head hash
and the result: everything needed to replay and audit the game without Redis. A write is atomic
(temporary file, fsync, rename, fsync of the folder: a job of many games syncs each folder once,
after all its files), and the bytes are a function of the document
alone (no timestamp in the gzip header), so archiving a game twice writes the same file.

When a retraction undoes a game's finish, its file is superseded: renamed beside it with the
version it was archived at (``<id>.json.gz.superseded-<version>``), which no reader of the archive
takes for a game's file; the game's next finish writes a new one.
"""

from __future__ import annotations

import gzip
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from service.store.records import GameRecord, StoredEvent

SUFFIX = ".json.gz"


def archive_document(record: GameRecord, events: list[StoredEvent]) -> dict[str, Any]:
    document = {
        "id": record.id,
        **record.header,
        "record_format": record.record_format,
        "created_at": record.created_at,
        "finished_at": record.finished_at,
        "version": record.version,
        "head_hash": record.head_hash,
        "result": record.result,
        "events": [event.as_json() for event in events],
    }
    # The notes an imported record came with, as they came (the archive job adds its own).
    if record.source_checkpoints:
        document["source_checkpoints"] = record.source_checkpoints
    return document


def events_of(document: dict[str, Any]) -> list[StoredEvent]:
    """The stored events of an archive document."""
    return [
        StoredEvent(
            seq=event["seq"],
            body={k: v for k, v in event.items() if k not in ("seq", "at", "hash")},
            at=event["at"],
            hash=event["hash"],
        )
        for event in document["events"]
    ]


class Archive:
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path(self, game_id: str) -> Path:
        # Game ids are hex: safe as file names. Two levels keep folders small.
        return self.directory / game_id[:2] / f"{game_id}{SUFFIX}"

    def write(self, document: dict[str, Any], *, sync_folder: bool = True) -> Path:
        """Write the game's file atomically; durable once its folder is synced, which it is here
        unless ``sync_folder`` is False: then the caller syncs each folder it wrote in once
        (``sync_folders``) before anything counts on the files (a job of many games)."""
        target = self.path(document["id"])
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = gzip.compress(orjson.dumps(document, option=orjson.OPT_SORT_KEYS), mtime=0)
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(payload)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        if sync_folder:
            _fsync_directory(target.parent)
        return target

    def sync_folders(self, written: list[Path]) -> None:
        """Make the renames of the files ``written`` durable: each folder they are in synced
        once, however many of them it holds."""
        for folder in sorted({path.parent for path in written}):
            _fsync_directory(folder)

    def supersede(self, document: dict[str, Any]) -> None:
        """Set aside the file of a finish that a retraction undid (if it is still there)."""
        current = self.path(document["id"])
        kept = current.with_name(f"{current.name}.superseded-{document['version']}")
        try:
            os.replace(current, kept)
        except FileNotFoundError:
            return
        _fsync_directory(current.parent)

    def read(self, game_id: str) -> dict[str, Any] | None:
        try:
            return read_document(self.path(game_id))
        except FileNotFoundError:
            return None

    def __iter__(self) -> Iterator[Path]:
        """Every archive file, in a stable order (by game id)."""
        return iter(sorted(self.directory.glob(f"*/*{SUFFIX}"), key=lambda p: p.name))


def read_document(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = orjson.loads(gzip.decompress(path.read_bytes()))
    return document


def _fsync_directory(directory: Path) -> None:
    # The rename is durable only once the folder's entry is on disk.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
