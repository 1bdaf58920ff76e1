"""The archive worker that ``tabletape serve`` runs beside the API, so that one command serves
the whole service: a finished game is archived, counted in the statistics and rated within
seconds.

It is ``tabletape worker`` in a child process, with the server's environment (and so its Redis,
embedded or not). A supervisor thread of the serving process starts it, starts it again if it
dies (after a pause that grows while it keeps dying, up to a minute), and stops it when the server
stops: asked as the server is asked to stop (``stop_soon``), and waited for once it has stopped
(``stop``). Where workers run apart (docker compose, a cluster), ``serve --no-worker`` leaves it
out.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import click

from service.store.child_process import die_with_parent

# Pauses before starting a worker that died again: the longer it keeps dying, the longer.
RESTART_PAUSES = (1, 2, 5, 15, 60)
# A worker that ran this long had not been dying: its next death starts the pauses again.
HEALTHY_SECONDS = 60


class SupervisedWorker:
    def __init__(self) -> None:
        self._stop = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(target=self._supervise, name="archive worker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop_soon(self) -> None:
        """Ask the worker to stop, without waiting: the server is stopping (``stop`` waits)."""
        self._stop.set()
        process = self._process
        if process is not None and process.poll() is None:
            # RQ's warm shutdown: the job in hand is finished (an archive job is idempotent).
            process.send_signal(signal.SIGTERM)

    def stop(self, timeout: float = 10.0) -> None:
        self.stop_soon()
        process = self._process
        if process is not None and process.poll() is None:
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._thread.join(timeout)

    def _supervise(self) -> None:
        deaths = 0
        while not self._stop.is_set():
            began = time.monotonic()
            # A session of its own: a terminal's Ctrl-C reaches the server alone, which stops the
            # worker once it has stopped answering (and it dies with the server all the same).
            # Its log quiet but for warnings, so that the server's last lines say where to open it.
            self._process = subprocess.Popen(
                [sys.executable, "-m", "cli", "worker", "--log-level", "WARNING"],
                env=dict(os.environ),
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
            code = self._process.wait()
            if self._stop.is_set():
                return
            deaths = 0 if time.monotonic() - began > HEALTHY_SECONDS else deaths + 1
            pause = RESTART_PAUSES[min(deaths, len(RESTART_PAUSES) - 1)]
            click.echo(f"the archive worker stopped (exit {code}); again in {pause} s", err=True)
            self._stop.wait(pause)
