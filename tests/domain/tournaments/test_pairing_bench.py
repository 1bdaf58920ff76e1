"""The pairing benchmark (bench/tournament_pairing.py) runs on small events: its histories are
played out by the rules, and it reports what it measured (times are reported, never asserted)."""

from __future__ import annotations

from bench.tournament_pairing import history_of, measure_one


def test_the_benchmarks_history_is_a_real_event() -> None:
    players, history = history_of("swiss", 12, 4, seed=3, table_size=(2, 2))
    assert len(players) == 12 and len(history) == 4
    assert all(len(one.tables) == 6 for one in history)


def test_the_benchmark_reports_each_measure() -> None:
    for format, size in (("swiss", (2, 2)), ("pods", (3, 5)), ("round_robin", (2, 2))):
        row = measure_one("small", format, 14, 3, size, seed=5, repeats=1)
        assert row["round"] == 4
        assert row["repeated_pairs"] == 0 or format == "pods"
        assert {"seconds", "cpu_seconds", "baseline_seconds", "ratio"} <= set(row)
