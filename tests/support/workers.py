"""The archive queue run in this process, and the `tabletape` command run as a worker would be."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flask import Flask
from rq import SimpleWorker

REPO = Path(__file__).resolve().parents[2]


def drain(app: Flask) -> None:
    """Run the archive queue to empty in this process (rq's SimpleWorker)."""
    queue = app.extensions["tabletape.queue"].queue
    SimpleWorker([queue], connection=queue.connection).work(burst=True)


def worker_env(store_url: str, key_prefix: str, archive_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "REDIS_URL": store_url,
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "ARCHIVE_DIR": str(archive_dir),
    }


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
