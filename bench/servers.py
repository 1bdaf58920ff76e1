"""Starting, watching and stopping a server under test (gunicorn, through ``bench.launch``).

Each server runs in its own process group, so stopping it can never leave a worker behind: a
SIGTERM to the master first (gunicorn's graceful stop), then SIGKILL to whatever is left of the
group.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.redis_target import RedisTarget, server_environment
from service.store.embedded import die_with_parent

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0

# Error lines the servers of this run logged, gathered as each stops (for the report).
LOGGED_ERRORS: list[dict[str, object]] = []


@dataclass
class Server:
    kind: str  # "full" (the API), "bare" (the baseline) or "peer" (bench.peer_app)
    port: int
    workers: int
    process: subprocess.Popen[bytes]
    log_path: Path

    def worker_processes(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def memory(self) -> dict[str, int]:
        """RSS, PSS and USS of the worker processes, summed (the master only forks them)."""
        totals = {"rss": 0, "pss": 0, "uss": 0}
        for worker in self.worker_processes():
            info = worker.memory_full_info()
            for name in totals:
                totals[name] += getattr(info, name, 0)
        return totals

    def workers_by_client_port(self) -> dict[int, int]:
        """Which worker (pid) holds the connection of each client port: gunicorn's workers accept
        on a shared socket, so with keep-alive a connection stays with whichever worker took it."""
        owners: dict[int, int] = {}
        for worker in self.worker_processes():
            for conn in worker.net_connections(kind="tcp"):
                if conn.laddr and conn.laddr.port == self.port and conn.raddr:
                    owners[conn.raddr.port] = worker.pid
        return owners

    def log_problems(self) -> list[str]:
        """The errors the server's log reports (the access log is there too): its ``[ERROR]``
        lines, and for each traceback the exception it ends with and where it was raised."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        problems = []
        for number, line in enumerate(lines):
            if "[ERROR]" in line:
                problems.append(line)
            elif line.startswith("Traceback"):
                # The traceback's frames are indented; the exception is its first line that is not.
                end = next(
                    (n for n in range(number + 1, len(lines)) if not lines[n].startswith(" ")),
                    len(lines) - 1,
                )
                frames = [
                    f.strip() for f in lines[number + 1 : end] if f.lstrip().startswith("File")
                ]
                where = f" (at {frames[-1]})" if frames else ""
                problems.append(f"{lines[end]}{where}")
        return problems

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=STOP_TIMEOUT)
        # Whatever is left of the group (ProcessLookupError: nothing was left behind).
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


@contextmanager
def running_server(
    kind: str,
    target: RedisTarget,
    workers: int,
    threads: int,
    env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """``env``: more of the server's environment (the peer's PostgreSQL settings)."""
    server = _start(kind, target, workers, threads, env or {})
    try:
        yield server
    finally:
        server.stop()
        problems = server.log_problems()
        if problems:
            # Not fatal (the figures stand), but the report says so.
            LOGGED_ERRORS.append({"server": kind, "lines": len(problems), "first": problems[:3]})


def _start(
    kind: str, target: RedisTarget, workers: int, threads: int, env: dict[str, str]
) -> Server:
    # A port found free can be taken before gunicorn binds it: try again on another.
    for _attempt in range(3):
        port = free_port()
        log_path = target.workdir / f"{kind}-{port}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bench.launch",
                    kind,
                    "--port",
                    str(port),
                    "--workers",
                    str(workers),
                    "--threads",
                    str(threads),
                ],
                cwd=REPO,
                env={**server_environment(target), **env},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own group, so that stop() can reach every worker; and a SIGTERM (gunicorn's
                # graceful stop) should the bench itself be killed outright.
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        server = Server(kind, port, workers, process, log_path)
        try:
            if _wait_until_up(server):
                return server
        except BaseException:
            server.stop()
            raise
        server.stop()
    raise RuntimeError(f"the {kind} server did not start:\n{server.log_tail()}")


def _wait_until_up(server: Server) -> bool:
    """True once the server answers /health as the app it should be with all its workers;
    False if it died (a port taken); RuntimeError if it answers as the wrong app or hangs."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            return False
        body = _health(server.port)
        if body is not None:
            # The API does not name itself: only the bench's apps do.
            if body.get("app", "full") != server.kind:
                raise RuntimeError(f"the {server.kind} server answers as another app: {body}")
            if len(server.worker_processes()) >= server.workers:
                return True
        time.sleep(0.1)
    raise RuntimeError(f"the {server.kind} server did not come up:\n{server.log_tail()}")


def _health(port: int) -> dict[str, object] | None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/health")
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            return None
        answer: dict[str, object] = json.loads(body)
        return answer
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
