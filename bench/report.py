"""The printed report: figures, the ratios to this run's baselines, and where each target stands."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

# Above this share of the cores used by other work, a side's figures are less comparable.
BUSY_NEIGHBOUR = 0.15


def print_report(results: dict[str, Any]) -> None:
    meta = results["meta"]
    print()
    print(f"Tabletape benchmark ({meta['mode']}), {meta['started_at']}")
    print(
        f"  {meta['cpus']} CPUs, Python {meta['python']}, Redis: {meta['redis']},"
        f" gunicorn {meta['workers']} workers ({meta.get('worker_class', 'gthread')}),"
        f" {meta['clients']} client processes"
    )
    print(
        f"  API rate limit set to {meta['api_rate_limit']!r} (never reached);"
        f" 1-min load average before the run {meta['load_average_at_start'][0]:.2f}"
    )
    sections = (
        ("append_http", _print_append_http),
        ("replay", _print_replay),
        ("append_vs_length", _print_length),
        ("memory", _print_memory),
        ("append_cluster", _print_append_cluster),
        ("failover", _print_failover),
        ("followers", _print_followers),
        ("append_peer", _print_append_peer),
        ("stats_query", print_stats_query),
        ("profile", print_profile),
    )
    for key, printer in sections:
        if key in results:
            printer(results[key])
    _print_targets(results)
    for logged in meta.get("server_log_errors", []):
        print(f"\n  ! the {logged['server']} server logged {logged['lines']} error line(s):")
        for line in logged["first"]:
            print(f"      {line}")
    print(f"\n  figures written to {meta['json']}  ({meta['seconds']:.0f} s in all)")


def _print_sides(
    sides: Iterable[tuple[str, dict[str, Any]]], *, width: int, store: str = "Redis"
) -> None:
    """The table of an appends figure: one row per side (throughput, latency, CPU per append)."""
    header = f"   {'':{width}}{'appends/s':>10}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}"
    print(header + f"{'server CPU/append':>19}{store + ' CPU/append':>18}")
    for name, side in sides:
        latency = side["latency"]
        server_cpu, redis_cpu = side["server_cpu_us_per_append"], side["redis_cpu_us_per_append"]
        print(
            f"   {name:{width}}{side['throughput']:>10.0f}{latency['p50_ms']:>9.2f}"
            f"{latency['p90_ms']:>9.2f}{latency['p99_ms']:>9.2f}"
            f"{server_cpu:>16.0f} us{redis_cpu:>15.0f} us"
        )


def _print_append_http(figures: dict[str, Any]) -> None:
    bare, full, ratios = figures["bare"], figures["full"], figures["ratios"]
    print("\n1. Appends through HTTP: the API vs. a bare Flask endpoint that only XADDs")
    print(
        f"   {len(full['throughput_per_round'])} round(s), both sides under the same gunicorn,"
        " Redis and clients"
    )
    _print_sides((("bare endpoint", bare), ("API (full)", full)), width=16)
    p90_ratio = full["latency"]["p90_ms"] / bare["latency"]["p90_ms"]
    print(
        f"   {'full / bare':16}{ratios['throughput_full_over_bare']:>9.2f}x"
        f"{ratios['p50_full_over_bare']:>8.2f}x{p90_ratio:>8.2f}x{ratios['p99_full_over_bare']:>8.2f}x"
        f"{ratios['server_cpu_per_append_full_over_bare']:>18.2f}x"
    )
    _print_round_notes((("bare", bare), ("full", full)))
    _print_targets_of(figures)


def _print_round_notes(sides: tuple[tuple[str, dict[str, Any]], ...]) -> None:
    """A line per side of a figure timed in rounds: its rounds' throughput and what may have
    disturbed them (errors, reconnects, clients spread unevenly, other work on the machine)."""
    for name, side in sides:
        rounds = ", ".join(f"{value:.0f}" for value in side["throughput_per_round"])
        notes = [f"per round {rounds} appends/s"]
        if side["errors"]:
            notes.append(f"errors {side['errors']}")
        if side.get("reconnects"):
            notes.append(f"{side['reconnects']} reconnects")
        if side.get("games_started_while_timed"):
            notes.append(f"{side['games_started_while_timed']} games started while timed")
        if "client_cpu_us_per_append" in side:
            notes.append(f"client CPU {side['client_cpu_us_per_append']:.0f} us/append")
        notes.append(f"other work on the machine {side['other_cpu_share']:.0%} of its cores")
        if not side.get("balanced", True):
            notes.append(f"UNBALANCED clients per worker {side['clients_per_worker']}")
        print(f"   {name}: " + "; ".join(notes))
        if side["other_cpu_share"] > BUSY_NEIGHBOUR:
            print(f"   ! other work took a share of the machine while {name} was timed: rerun")


def _print_replay(figures: dict[str, Any]) -> None:
    print("\n2. Replay from the stream: XRANGE + decode + reduce vs. XRANGE + decode alone")
    print(
        f"   {'games':22}{'events/game':>12}{'read+decode/s':>15}{'replay/s':>11}"
        f"{'reduce only/s':>15}{'replay/read':>13}"
    )
    for name, entry in figures.items():
        label = f"{entry['games']} {name}"
        print(
            f"   {label:22}{entry['events_per_game']:>12.0f}"
            f"{entry['read_decode_events_per_s']:>15,.0f}"
            f"{entry['replay_events_per_s']:>11,.0f}{entry['reduce_only_events_per_s']:>15,.0f}"
            f"{entry['replay_over_read_decode']:>12.2f}x"
        )
    for entry in figures.values():
        _print_targets_of(entry)


def _print_length(figures: dict[str, Any]) -> None:
    print(
        f"\n3. Append cost vs. game length: {figures['pairs']} pair(s) of games of"
        f" {figures['events_per_game']} events, one request at a time on the API;"
        "\n   the late appends of one game alternate with the early appends of the next"
    )
    early, late = figures["early_window"], figures["late_window"]
    low, high = figures["late_over_early_90pct_interval"]
    print(
        f"   median append #{early[0]}..#{early[1]}: {figures['early_median_ms']:.3f} ms;"
        f" #{late[0]}..#{late[1]}: {figures['late_median_ms']:.3f} ms;"
        f" late / early {figures['late_over_early']:.3f} (90% interval {low:.3f}..{high:.3f})"
    )
    pairs = ", ".join(f"{value:.2f}" for value in figures["per_pair_late_over_early"])
    print(f"   late / early per pair: {pairs}")
    curve = ", ".join(f"#{n} {ms:.2f}" for n, ms in figures["curve_median_ms"].items())
    print(f"   median ms around append {curve}")
    sizes = figures["response_bytes_at"]
    print(f"   response size: {sizes['10']:.0f} bytes at #10, {sizes['1000']:.0f} at #1000")
    _print_targets_of(figures)


def _print_memory(figures: dict[str, Any]) -> None:
    print(f"\n4. Memory of the API's {figures['workers']} gunicorn workers (a fresh server)")
    for sample in figures["samples"]:
        print(
            f"   after {sample['appends']:>6} appends: RSS {sample['rss_mib']:7.1f} MiB,"
            f" PSS {sample['pss_mib']:7.1f} MiB, USS {sample['uss_mib']:7.1f} MiB"
        )
    print(
        f"   growth first -> last: RSS {figures['rss_growth_mib']:+.1f} MiB"
        f" ({figures['rss_growth']:+.1%}), PSS {figures['pss_growth_mib']:+.1f} MiB,"
        f" USS {figures['uss_growth_mib']:+.1f} MiB;"
        f" RSS {figures['rss_growth_kib_per_1000_appends']:+.0f} KiB per 1,000 appends"
    )
    if figures["uss_growth_mib"] > max(4 * figures["rss_growth_mib"], 4.0):
        # Seen here: USS jumps once, by about what the workers share with the master, and stays.
        print(
            "   (USS grew but RSS did not: pages the workers shared with the gunicorn master became"
            " private,\n    copy-on-write, typically at a worker's first full garbage collection;"
            " gc.freeze() before forking avoids it)"
        )
    _print_targets_of(figures)


def _print_append_cluster(figures: dict[str, Any]) -> None:
    single, cluster, ratios = figures["single"], figures["cluster"], figures["ratios"]
    print(
        f"\n5. Appends through HTTP: the API on a {figures['masters']}-master Redis Cluster"
        " (no replicas, no WAIT) vs. the API on one Redis"
    )
    print(
        f"   {len(cluster['throughput_per_round'])} round(s), measured as in 1; both stores"
        " redis-servers on loopback TCP, same binary and flags, nothing persisted;"
        f"\n   RQ's queue on {figures['queue_redis']}"
    )
    _print_sides((("one Redis", single), ("Redis Cluster", cluster)), width=18)
    p90_ratio = _ratio(cluster["latency"]["p90_ms"], single["latency"]["p90_ms"])
    print(
        f"   {'cluster / single':18}{ratios['throughput_cluster_over_single']:>9.2f}x"
        f"{ratios['p50_cluster_over_single']:>8.2f}x{p90_ratio:>8.2f}x"
        f"{ratios['p99_cluster_over_single']:>8.2f}x"
        f"{ratios['server_cpu_per_append_cluster_over_single']:>18.2f}x"
        f"{ratios['redis_cpu_per_append_cluster_over_single']:>17.2f}x"
    )
    print("   (Redis CPU: summed over the cluster's masters)")
    _print_round_notes((("single", single), ("cluster", cluster)))
    print("   no product target: reported for comparison only")


def _print_failover(figures: dict[str, Any]) -> None:
    print(
        f"\n6. A master killed under a load of appends: {figures['masters']} masters with"
        f" {figures['replicas_per_master']} replica each, WAIT 1 ({figures['replica_wait_ms']} ms)"
    )
    unavailable = sum(figures["unavailable"].values())
    print(
        f"   master :{figures['killed_port']} killed (SIGKILL); its replica served after"
        f" {figures['takeover_seconds']:.1f} s\n"
        f"   acknowledged {figures['acknowledged']} appends"
        f" ({figures['acknowledged_during_takeover']} during the takeover,"
        f" {figures['acknowledged_on_promoted']} on the promoted replica after it)\n"
        f"   503s met (and retried with their Idempotency-Key): {unavailable}"
        f" {figures['unavailable']}; other errors: {len(figures['unexpected'])}\n"
        f"   LOST: {figures['lost']}   DUPLICATED: {figures['duplicated']}   (target: 0 and 0)"
    )
    for error in figures["unexpected"][:5]:
        print(f"   ! {error}")
    rates = figures.get("appends_per_second")
    if rates:
        print("   what the wait costs, appends/s through the GameService before the kill:")
        for threads, with_wait in rates["with_wait"].items():
            without = rates["without_wait"][threads]
            print(
                f"     {threads} thread(s): {with_wait:.0f} with WAIT 1, {without:.0f} without"
                f"  ({with_wait / without:.2f}x)"
            )


def _print_followers(figures: dict[str, Any]) -> None:
    plan = figures["plan"]
    print(
        f"\n7. Live followers: {plan['followers']:,} streams of {plan['games']} live games on"
        f" `tabletape serve`'s defaults ({plan['workers']} gevent workers);"
        f"\n   {plan['client_processes']} asyncio client process(es) follow, {plan['appenders']}"
        " append: all on the same cores as the server"
    )
    print(
        f"   streams open {figures['followers_open']:,}, refused {figures['followers_refused']:,}"
        f" (statuses {figures['open_statuses']}), opened in {figures['open_seconds']:.1f} s;"
        f" closed early {figures['streams_closed_early']}"
    )
    delay = figures["delay_ms"]
    print(
        f"   moves delivered {figures['moves_delivered']:,} / expected"
        f" {figures['moves_expected']:,}, out of order {figures['out_of_order']};"
        f" at {figures['append_rate_live']:.0f} appends/s, delay from the 201 to the follower:"
        f" p50 {delay['p50']:.1f} ms, p90 {delay['p90']:.1f} ms, p99 {delay['p99']:.1f} ms,"
        f" max {delay['max']:.1f} ms ({delay['count']:,} deliveries)"
    )
    live = figures["live"]
    print(
        f"   while live: server CPU {live['server_cpu_seconds']:.1f} s in {live['seconds']:.0f} s;"
        f" the whole machine busy {live['machine_busy_cpu_seconds']:.1f} CPU-s (others' work"
        " included); after C the followers had every move in"
        f" {figures['seconds_to_catch_up_after_c']:.1f} s"
    )
    base, loaded = figures["baseline"], figures["with_followers"]
    runs = ", ".join(f"{value:.0f}" for value in base.get("throughput_per_run", []))
    print(
        f"   appends/s without followers {base['throughput']:.0f} (before and after: {runs}),"
        f" with them {loaded['throughput']:.0f}: {figures['throughput_ratio']:.2f}x"
        f" (append p99 {base['append_p99_ms']:.1f} -> {loaded['append_p99_ms']:.1f} ms;"
        f" server CPU {base['server_cpu_seconds']:.1f} -> {loaded['server_cpu_seconds']:.1f} s)"
    )
    if "unfollowed" in figures:
        quiet = figures["unfollowed"]
        base, loaded = quiet["baseline"], quiet["with_followers_connected"]
        runs = ", ".join(f"{value:.0f}" for value in base["throughput_per_run"])
        print(
            f"   appends/s to {plan['unfollowed_games']} games no one follows: without followers"
            f" {base['throughput']:.0f} ({runs}), with the followers connected (their games"
            f" quiet) {loaded['throughput']:.0f}: {quiet['throughput_ratio']:.2f}x"
            f" (append p99 {base['append_p99_ms']:.1f} -> {loaded['append_p99_ms']:.1f} ms)"
        )
    print(
        f"   API processes' RSS {figures['rss_mib_before']:.1f} MiB before the followers,"
        f" {figures['rss_mib_idle_followers']:.1f} MiB with them idle:"
        f" {figures['rss_kib_per_follower']:.1f} KiB per open stream"
    )
    for label, key in (("before", "redis_connections_before"), ("live", "redis_connections_live")):
        shown = ", ".join(
            f"pid {pid}: {c['connections']} ({c['feed_readers']} feed readers)"
            for pid, c in figures[key].items()
        )
        print(f"   Redis connections per API process, {label}: {shown}")


def _print_append_peer(figures: dict[str, Any]) -> None:
    print("\n8. Appends through HTTP: the API vs. a peer on the eventsourcing library + PostgreSQL")
    if "skipped" in figures:
        print(f"   skipped: {figures['skipped']}")
        return
    peer, full, ratios = figures["peer"], figures["full"], figures["ratios"]
    where = figures["postgres"]
    print(
        f"   {len(full['throughput_per_round'])} round(s), measured as in 1; the peer validates"
        " with the same reducer, stores through an eventsourcing Application (aggregate cache on)"
        f"\n   in PostgreSQL {where['POSTGRES_HOST']}:{where['POSTGRES_PORT']}"
        f"/{where['POSTGRES_DBNAME']} ({figures['peer_commit']}: Redis's fsync every second)"
    )
    _print_sides((("peer", peer), ("API (full)", full)), width=16, store="store")
    print(
        f"   {'full / peer':16}{ratios['throughput_full_over_peer']:>9.2f}x"
        f"{ratios['p50_full_over_peer']:>8.2f}x{ratios['p90_full_over_peer']:>8.2f}x"
        f"{ratios['p99_full_over_peer']:>8.2f}x"
        f"{ratios['server_cpu_per_append_full_over_peer']:>18.2f}x"
        f"{ratios['store_cpu_per_append_full_over_peer']:>17.2f}x"
    )
    print("   (store CPU: Redis for the API; every PostgreSQL process for the peer, others' too)")
    _print_round_notes((("peer", peer), ("full", full)))


def print_stats_query(figures: dict[str, Any]) -> None:
    fill, rebuild = figures["fill"], figures["rebuild"]
    print(
        f"\n9. Statistics you can query: {figures['games']} finished games of"
        f" {figures['players']} players over a year, counted through the archive job's update"
        f" path\n   at {fill['games_per_second']:.0f} games/s ({fill['seconds']:.0f} s,"
        f" {fill['redis_memory_mb']:.0f} MB of Redis); queries through the Flask app in process;"
        f" the figure took {figures['seconds']:.0f} s"
    )
    print(f"   {'':44}{'p50 ms':>9}{'p99 ms':>9}{'p99/health':>12}{'p99/unfiltered':>16}")
    for name, query in figures["queries"].items():
        print(
            f"   {name:44}{query['p50_ms']:>9.2f}{query['p99_ms']:>9.2f}"
            f"{query['p99_over_health']:>11.1f}x{query['p99_over_unfiltered']:>15.1f}x"
        )
    print(
        f"   stats rebuild: {rebuild['games']} archive files of random Mada games"
        f" ({rebuild['mean_events']:.0f} events each on average) in {rebuild['seconds']:.1f} s:"
        f" {rebuild['games_per_second']:.0f} games/s"
    )
    _print_targets_of(figures)


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else math.nan


def print_profile(figures: dict[str, Any]) -> None:
    print(
        f"\nProfile of the append path, in process: {figures['us_per_append_in_process']:.0f} us"
        " per append (Flask test client, real Redis, no gunicorn);"
        f" {figures['us_per_append_in_process_without_rate_limit']:.0f} us with RATE_LIMIT off"
    )
    print("   stages (inclusive, nested; us per append):")
    stages = figures["stages"]
    for stage in stages:
        indent = "  " * stage["depth"]
        calls = stage["calls_per_append"]
        shown = f"{calls:.3f}" if calls < 0.1 else f"{calls:.1f}"
        times = f" ({shown} calls)" if not math.isclose(calls, 1.0) else ""
        label = f"{indent}{stage['stage']}"
        print(f"     {label:<50}{stage['us_per_append']:>7.0f}{times}")
    by_label = {stage["stage"]: stage["us_per_append"] for stage in stages}
    request = by_label.get("request in Flask (wsgi_app)")
    use_case = by_label.get("GameService.append")
    if use_case is not None:
        parts = sum(stage["us_per_append"] for stage in stages if stage["depth"] == 2)
        print(f"     {'  rest of GameService.append':<50}{use_case - parts:>7.0f}")
    if request is not None:
        inside = sum(stage["us_per_append"] for stage in stages if stage["depth"] == 1)
        label = "  rest: Flask, werkzeug, flask-smorest, the view"
        print(f"     {label:<50}{request - inside:>7.0f}")
    print("   top functions by own time (cProfile; us per append, inflated by the profiler):")
    for row in figures["top_own_time"][:15]:
        print(
            f"     {row['own_us_per_append']:7.1f} own {row['cumulative_us_per_append']:8.1f} cum"
            f" {row['calls_per_append']:6.1f} calls  {row['function']}"
        )


def _print_targets_of(figures: dict[str, Any]) -> None:
    for name, target in figures.get("targets", {}).items():
        verdict = "met" if target["met"] else "NOT MET"
        print(f"   target {name}: measured {target['measured']:.3f} -> {verdict}")


def _print_targets(results: dict[str, Any]) -> None:
    print("\nTargets (the product's; reported, never enforced):")
    for section, name, target in iter_targets(results):
        verdict = "met" if target["met"] else "NOT MET"
        print(f"   {section:28} {name:42} {target['measured']:7.3f}  {verdict}")


def iter_targets(results: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(where, name, target) of every target in the results, nested ones named by their key."""
    found = []
    for section, figures in results.items():
        if not isinstance(figures, dict):
            continue
        nested = [(f"{section}, {key}", v) for key, v in figures.items() if isinstance(v, dict)]
        candidates = [(section, figures), *nested]
        for where, candidate in candidates:
            for name, target in candidate.get("targets", {}).items():
                found.append((where, name, target))
    return found
