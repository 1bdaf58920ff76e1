"""Figure 7: thousands of live followers on one machine.

`tabletape serve` with its defaults (2 gevent workers) on the bench's Redis; 50 endless games. In
one run, on one server:

  A. appends as fast as ``appenders`` clients can make them, no follower connected: the baseline;
  B. N followers open a stream each (spread evenly over the games, each from the game's current
     version, as a viewer joining a live game); their memory is read while they are idle; then
     appends at 50/s across the games for ``live_seconds``: every move's delay from the append's
     201 to its arrival at each follower (both read on the machine's monotonic clock, in
     different processes);
  C. appends as fast as in A, the followers still connected and following: every append goes
     out to N / 50 followers;
  A'. A again once the followers are gone: the baseline is the mean of A and A'.

And the other reading of "appends with the followers connected": the same appenders on
``unfollowed_games`` games that no one follows, without followers (in A and A') and with the N
followers connected but their own games quiet (C0, between B and C): what holding 5,000 open
streams costs the appends, apart from delivering the moves to them.

Followers are asyncio clients, ``client_processes`` processes of N / that many sockets each, on
the same 2 cores as the server: what they spend reading is taken from the server. Appenders are
processes with one keep-alive connection each, each appending to its own games in turn.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import time
import traceback
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection as Pipe
from typing import Any

import redis

from bench.load import _machine_busy, _server_cpu, expect
from bench.redis_target import RedisTarget
from bench.scripts import GameScript, endless_game
from bench.servers import Server, running_server
from bench.stats import percentile
from bench.wire import Append, Connection, prepare_appends
from service.store.embedded import die_with_parent

MESSAGE_TIMEOUT = 600.0
FIRST_SEED = 60_000


@dataclass(frozen=True)
class Plan:
    followers: int = 5_000
    games: int = 50
    # B: appends per second, across the games.
    append_rate: float = 50.0
    live_seconds: float = 30.0
    # A and C: seconds of appends as fast as the appenders go.
    loaded_seconds: float = 10.0
    appenders: int = 4
    client_processes: int = 2
    # Streams being opened at once (each waits for its response's head).
    opening_at_once: int = 200
    # Moves scripted per game: enough for A, B, C and A'.
    moves_per_game: int = 900
    # Games no one follows (A, C0 and A' on them), and their moves: enough for three phases.
    unfollowed_games: int = 20
    unfollowed_moves: int = 1500
    # After C, how long the followers may take to get the last moves before they are counted.
    catch_up_seconds: float = 60.0
    workers: int = 2


DEFAULT = Plan()
QUICK = Plan(followers=500, live_seconds=8.0, loaded_seconds=3.0, moves_per_game=300,
             unfollowed_moves=500, client_processes=1, catch_up_seconds=20.0)  # fmt: skip

# The product's targets (issue 13), reported, never enforced.
TARGET_P99_MS = 250.0
TARGET_THROUGHPUT_RATIO = 0.9
TARGET_KIB_PER_FOLLOWER = 64.0


def measure(
    target: RedisTarget,
    redis_client: redis.Redis,
    mode: str,
    log: Callable[[str], None],
    followers: int | None = None,
) -> dict[str, Any]:
    plan = QUICK if mode == "quick" else DEFAULT
    if followers is not None:
        plan = replace(plan, followers=followers)
    log(f"   scripting {plan.games} endless games of {plan.moves_per_game} moves")
    scripts = [endless_game(FIRST_SEED + i, plan.moves_per_game) for i in range(plan.games)]
    quiet_scripts = [
        endless_game(FIRST_SEED + plan.games + i, plan.unfollowed_moves)
        for i in range(plan.unfollowed_games)
    ]
    with running_server("full", target, plan.workers, threads=16) as server:
        conn = Connection(server.port)
        games, unfollowed = _created(conn, scripts), _created(conn, quiet_scripts)
        conn.close()
        versions = [0] * plan.games
        unfollowed_versions = [0] * plan.unfollowed_games

        log("   A. appends, no follower")
        baseline = _appends(server, redis_client, games, versions, plan, rate=None)
        quiet_baseline = _appends(
            server, redis_client, unfollowed, unfollowed_versions, plan, rate=None
        )
        rss_before = _rss(server)
        connections_before = redis_connections(redis_client, server)

        log(f"   B. {plan.followers} followers open, then appends at {plan.append_rate:.0f}/s")
        clients = FollowerClients(server.port, [g for g, _ in games], list(versions), plan)
        try:
            opened = clients.open()
            time.sleep(1.0)
            rss_idle = _rss(server)
            live = _appends(server, redis_client, games, versions, plan, rate=plan.append_rate)
            connections_live = redis_connections(redis_client, server)
            log("   C0. appends to games no one follows, the followers connected")
            quiet_loaded = _appends(
                server, redis_client, unfollowed, unfollowed_versions, plan, rate=None
            )
            log("   C. appends, the followers connected")
            loaded = _appends(server, redis_client, games, versions, plan, rate=None)
            # The followers get the last moves (a loaded server may be behind), then close.
            received, catching_up = clients.stop(versions, plan.catch_up_seconds)
            followed = list(versions)
        finally:
            clients.close()
        # A again, the followers gone: the baseline is both runs' mean, so that a drift of the
        # machine (or the games' length) hits both sides alike. The server first closes the
        # streams the followers left.
        log("   A'. appends, the followers gone")
        time.sleep(5.0)
        again = _appends(server, redis_client, games, versions, plan, rate=None)
        quiet_again = _appends(
            server, redis_client, unfollowed, unfollowed_versions, plan, rate=None
        )
    figures = _figures(plan, [baseline, again], live, loaded, opened, received, followed,
                       rss_before, rss_idle, connections_before, connections_live)  # fmt: skip
    figures["seconds_to_catch_up_after_c"] = catching_up
    figures["live"] = _side(live)
    quiet = _mean_of_runs([quiet_baseline, quiet_again])
    figures["unfollowed"] = {
        "baseline": quiet,
        "with_followers_connected": _side(quiet_loaded),
        "throughput_ratio": (
            quiet_loaded["throughput"] / quiet["throughput"] if quiet["throughput"] else math.nan
        ),
    }
    return figures


def _created(conn: Connection, scripts: list[GameScript]) -> list[tuple[str, list[Append]]]:
    """Each scripted game created on the server: its id and its appends, ready to send."""
    games = []
    for script in scripts:
        game_id, token = conn.create_game(script)
        games.append((game_id, prepare_appends(game_id, token, script)))
    return games


def _mean_of_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's figures, with the means of the runs' throughput, latency and CPU."""
    mean = _side(runs[0])
    for key in ("throughput", "append_p50_ms", "append_p99_ms", "server_cpu_seconds"):
        mean[key] = sum(run[key] for run in runs) / len(runs)
    mean["throughput_per_run"] = [run["throughput"] for run in runs]
    return mean


def _figures(
    plan: Plan,
    baselines: list[dict[str, Any]],
    live: dict[str, Any],
    loaded: dict[str, Any],
    opened: dict[str, Any],
    received: list[dict[str, Any]],
    versions: list[int],
    rss_before: int,
    rss_idle: int,
    connections_before: dict[str, dict[str, int]],
    connections_live: dict[str, dict[str, int]],
) -> dict[str, Any]:
    answered_at = {(game, seq): at for game, seq, at in live["answered"]}
    baseline = _mean_of_runs(baselines)
    delays: list[float] = []
    delivered = expected = out_of_order = 0
    for follower in received:
        if follower["status"] != 200:
            continue
        expected += versions[follower["game"]] - follower["after"]
        delivered += len(follower["seqs"])
        out_of_order += follower["out_of_order"]
        for seq, at in zip(follower["seqs"], follower["times"], strict=True):
            sent = answered_at.get((follower["game"], seq))
            if sent is not None:
                # A follower may read a move before its appender reads the 201: no delay.
                delays.append(max(0.0, at - sent))
    open_streams = opened["statuses"].get(200, 0)
    p99_ms = percentile(delays, 99) * 1000
    ratio = loaded["throughput"] / baseline["throughput"] if baseline["throughput"] else math.nan
    kib = (rss_idle - rss_before) / 1024 / open_streams if open_streams else math.nan
    return {
        "plan": plan.__dict__,
        "followers_open": open_streams,
        "followers_refused": plan.followers - open_streams,
        "open_statuses": {str(k): v for k, v in opened["statuses"].items()},
        "open_seconds": opened["seconds"],
        "moves_delivered": delivered,
        "moves_expected": expected,
        "out_of_order": out_of_order,
        "streams_closed_early": sum(1 for f in received if f["closed"]),
        "delay_ms": {
            "count": len(delays),
            "p50": percentile(delays, 50) * 1000,
            "p90": percentile(delays, 90) * 1000,
            "p99": p99_ms,
            "max": max(delays, default=math.nan) * 1000,
        },
        "append_rate_live": live["throughput"],
        "baseline": baseline,
        "with_followers": _side(loaded),
        "throughput_ratio": ratio,
        "rss_mib_before": rss_before / 2**20,
        "rss_mib_idle_followers": rss_idle / 2**20,
        "rss_kib_per_follower": kib,
        "redis_connections_before": connections_before,
        "redis_connections_live": connections_live,
        "client_cpu_seconds": sum(f["cpu"] for f in opened["clients"]),
        "targets": {
            "all streams open (refused = 0)": _target(plan.followers - open_streams, 0, "<="),
            "every move delivered (delivered/expected)": _target(
                delivered / expected if expected else math.nan, 1.0, ">="
            ),
            f"p99 delay <= {TARGET_P99_MS:.0f} ms": _target(p99_ms, TARGET_P99_MS, "<="),
            f"throughput with/without >= {TARGET_THROUGHPUT_RATIO}": _target(
                ratio, TARGET_THROUGHPUT_RATIO, ">="
            ),
            f"RSS per idle follower < {TARGET_KIB_PER_FOLLOWER:.0f} KiB": _target(
                kib, TARGET_KIB_PER_FOLLOWER, "<"
            ),
        },
    }


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in side.items() if key != "answered"}


def _target(measured: float, bound: float, sense: str) -> dict[str, Any]:
    met = {
        "<=": measured <= bound,
        "<": measured < bound,
        ">=": measured >= bound,
    }[sense]
    return {"measured": measured, "bound": bound, "met": bool(met)}


def _rss(server: Server) -> int:
    return server.memory()["rss"]


def redis_connections(client: redis.Redis, server: Server) -> dict[str, dict[str, int]]:
    """Per API process (by pid): its connections to Redis, and how many are feeds' readers
    (the service names its connections ``tabletape-<pid>``, its readers
    ``tabletape-<pid>-feed-<game>``)."""
    counts: dict[str, dict[str, int]] = {
        str(worker.pid): {"connections": 0, "feed_readers": 0}
        for worker in server.worker_processes()
    }
    for entry in client.client_list():
        parts = str(entry.get("name", "")).split("-")
        if len(parts) >= 2 and parts[0] == "tabletape" and parts[1] in counts:
            counts[parts[1]]["connections"] += 1
            counts[parts[1]]["feed_readers"] += len(parts) > 2 and parts[2] == "feed"
    return counts


# Appenders ----------------------------------------------------------------------------------------
def _appends(
    server: Server,
    redis_client: redis.Redis,
    games: list[tuple[str, list[Append]]],
    versions: list[int],
    plan: Plan,
    rate: float | None,
) -> dict[str, Any]:
    """``plan.appenders`` processes append to the games (each to its own share, in turn), as
    fast as they go (``rate`` None) or at ``rate`` per second in all, for the phase's seconds.
    ``versions`` is brought up to date."""
    seconds = plan.loaded_seconds if rate is None else plan.live_seconds
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for index in range(plan.appenders):
        mine = list(range(index, len(games), plan.appenders))
        parent_end, child_end = context.Pipe()
        work = [(g, games[g][1], versions[g]) for g in mine]
        each = None if rate is None else rate / plan.appenders
        arguments = (server.port, work, seconds, each, child_end)
        process = context.Process(target=_appender_main, args=arguments, daemon=True)
        process.start()
        child_end.close()
        pipes.append(parent_end)
        processes.append(process)
    try:
        for pipe in pipes:
            expect(pipe, "ready", MESSAGE_TIMEOUT)
        cpu_before = _server_cpu(server), _machine_busy()
        for pipe in pipes:
            pipe.send("go")
        results = [expect(pipe, "done", seconds + MESSAGE_TIMEOUT) for pipe in pipes]
        cpu_after = _server_cpu(server), _machine_busy()
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in pipes:
            pipe.close()
    for result in results:
        for game, version in result["versions"].items():
            versions[game] = version
    elapsed = max(r["end"] for r in results) - min(r["start"] for r in results)
    count = sum(r["appends"] for r in results)
    latencies = [value for r in results for value in r["latencies"]]
    errors: Counter[str] = Counter()
    for result in results:
        errors.update(result["errors"])
    return {
        "appends": count,
        "seconds": elapsed,
        "throughput": count / elapsed if elapsed > 0 else 0.0,
        "append_p50_ms": percentile(latencies, 50) * 1000,
        "append_p99_ms": percentile(latencies, 99) * 1000,
        "errors": dict(errors),
        "scripts_exhausted": sum(r["exhausted"] for r in results),
        "server_cpu_seconds": cpu_after[0] - cpu_before[0],
        "machine_busy_cpu_seconds": cpu_after[1] - cpu_before[1],
        "answered": [entry for r in results for entry in r["answered"]],
    }


def _appender_main(
    port: int,
    work: list[tuple[int, list[Append], int]],
    seconds: float,
    rate: float | None,
    pipe: Pipe,
) -> None:
    die_with_parent()
    try:
        pipe.send(("done", _append_loop(port, work, seconds, rate, pipe)))
    except BaseException:
        pipe.send(("failed", traceback.format_exc()))
    finally:
        pipe.close()


def _append_loop(
    port: int,
    work: list[tuple[int, list[Append], int]],
    seconds: float,
    rate: float | None,
    pipe: Pipe,
) -> dict[str, Any]:
    conn = Connection(port)
    conn.connect()
    versions = {game: version for game, _, version in work}
    scripts = {game: appends for game, appends, _ in work}
    order = [game for game, _, _ in work]
    latencies = array("d")
    answered: list[tuple[int, int, float]] = []
    errors: Counter[str] = Counter()
    pipe.send(("ready", None))
    if pipe.recv() != "go":
        return {}
    start = time.monotonic()
    deadline = start + seconds
    interval = 1.0 / rate if rate else 0.0
    turn = 0
    exhausted = 0
    while time.monotonic() < deadline and order:
        if rate:
            pause = start + turn * interval - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        game = order[turn % len(order)]
        turn += 1
        version = versions[game]
        if version >= len(scripts[game]):
            order.remove(game)
            exhausted += 1
            continue
        sent = time.monotonic()
        status, _ = conn.append(scripts[game][version])
        done = time.monotonic()
        if status == 201:
            versions[game] = version + 1
            latencies.append(done - sent)
            if rate:
                answered.append((game, version + 1, done))
        else:
            errors[str(status)] += 1
            if sum(errors.values()) > 100:
                raise RuntimeError(f"too many failed appends: {dict(errors)}")
    end = time.monotonic()
    conn.close()
    return {"appends": len(latencies), "start": start, "end": end, "versions": versions,
            "latencies": latencies.tolist(), "answered": answered, "errors": dict(errors),
            "exhausted": exhausted}  # fmt: skip


# Followers ----------------------------------------------------------------------------------------
class FollowerClients:
    """The follower processes: each follows its share of the games over asyncio sockets."""

    def __init__(self, port: int, game_ids: list[str], versions: list[int], plan: Plan) -> None:
        self.plan = plan
        context = multiprocessing.get_context("fork")
        # Follower k follows game k mod games, from its current version.
        everyone = [(k % len(game_ids), game_ids[k % len(game_ids)], versions[k % len(game_ids)])
                    for k in range(plan.followers)]  # fmt: skip
        self.pipes: list[Pipe] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        for index in range(plan.client_processes):
            share = everyone[index :: plan.client_processes]
            parent_end, child_end = context.Pipe()
            process = context.Process(target=_followers_main,
                                      args=(port, share, plan.opening_at_once, child_end),
                                      daemon=True)  # fmt: skip
            process.start()
            child_end.close()
            self.pipes.append(parent_end)
            self.processes.append(process)

    def open(self) -> dict[str, Any]:
        """Once every stream has its answer: statuses counted, seconds it took."""
        reports = [expect(pipe, "opened", MESSAGE_TIMEOUT) for pipe in self.pipes]
        statuses: Counter[int] = Counter()
        for report in reports:
            statuses.update(report["statuses"])
        return {"statuses": dict(statuses), "seconds": max(r["seconds"] for r in reports),
                "clients": reports}  # fmt: skip

    def stop(self, versions: list[int], patience: float) -> tuple[list[dict[str, Any]], float]:
        """What each follower received, once all have each game's ``versions`` (or after
        ``patience`` seconds); and how long they took to get there."""
        for pipe in self.pipes:
            pipe.send(("stop", versions, patience))
        received: list[dict[str, Any]] = []
        waited = 0.0
        for pipe in self.pipes:
            report = expect(pipe, "done", MESSAGE_TIMEOUT)
            received += report["followers"]
            waited = max(waited, report["waited"])
        return received, waited

    def close(self) -> None:
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self.pipes:
            pipe.close()


class _Follower:
    def __init__(self, game: int, game_id: str, after: int) -> None:
        self.game = game
        self.after = after
        self.last = after
        self.request = (
            f"GET /games/{game_id}/stream HTTP/1.0\r\nHost: bench\r\nLast-Event-ID: {after}\r\n\r\n"
        ).encode()
        self.status = 0
        self.seqs = array("I")
        self.times = array("d")
        self.out_of_order = 0
        self.closed = False

    async def follow(self, port: int, opening: asyncio.Semaphore, answered: asyncio.Event) -> None:
        try:
            async with opening:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(self.request)
                head = await reader.readuntil(b"\r\n\r\n")
                self.status = int(head.split(b" ", 2)[1])
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.status = -1
            return
        finally:
            answered.set()
        try:
            if self.status != 200:
                return
            await self._read(reader)
        finally:
            writer.close()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        pending = b""
        while chunk := await reader.read(65536):
            now = time.monotonic()
            *messages, pending = (pending + chunk).split(b"\n\n")
            for message in messages:
                if message.startswith(b"id: "):
                    seq = int(message[4 : message.index(b"\n")])
                    if seq != self.last + 1:
                        self.out_of_order += 1
                    if seq > self.last:
                        self.last = seq
                        self.seqs.append(seq)
                        self.times.append(now)
        self.closed = True

    def result(self) -> dict[str, Any]:
        return {"game": self.game, "after": self.after, "status": self.status,
                "seqs": self.seqs.tolist(), "times": self.times.tolist(),
                "out_of_order": self.out_of_order, "closed": self.closed}  # fmt: skip


def _followers_main(port: int, share: list[tuple[int, str, int]], at_once: int, pipe: Pipe) -> None:
    die_with_parent()
    try:
        asyncio.run(_follow_all(port, share, at_once, pipe))
    except BaseException:
        pipe.send(("failed", traceback.format_exc()))
    finally:
        pipe.close()


async def _follow_all(
    port: int, share: list[tuple[int, str, int]], at_once: int, pipe: Pipe
) -> None:
    followers = [_Follower(*entry) for entry in share]
    opening = asyncio.Semaphore(at_once)
    answered = [asyncio.Event() for _ in followers]
    began = time.monotonic()
    cpu = time.process_time()
    tasks = [
        asyncio.create_task(f.follow(port, opening, event))
        for f, event in zip(followers, answered, strict=True)
    ]
    await asyncio.gather(*(event.wait() for event in answered))
    statuses = Counter(f.status for f in followers)
    pipe.send(("opened", {"statuses": dict(statuses), "seconds": time.monotonic() - began,
                          "cpu": time.process_time() - cpu}))  # fmt: skip
    _, versions, patience = await asyncio.to_thread(pipe.recv)
    waiting = time.monotonic()
    while time.monotonic() - waiting < patience and any(
        f.status == 200 and not f.closed and f.last < versions[f.game] for f in followers
    ):
        await asyncio.sleep(0.1)
    waited = time.monotonic() - waiting
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(("done", {"followers": [f.result() for f in followers], "waited": waited}))
