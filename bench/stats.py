"""Small statistics: percentiles of latencies, medians, ratios."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), interpolated between the two nearest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency_summary(seconds: Sequence[float]) -> dict[str, float]:
    """Latencies in milliseconds."""
    if not seconds:
        return {"count": 0}
    ms = [value * 1000 for value in seconds]
    return {
        "count": len(ms),
        "mean_ms": statistics.fmean(ms),
        "p50_ms": percentile(ms, 50),
        "p90_ms": percentile(ms, 90),
        "p99_ms": percentile(ms, 99),
        "max_ms": max(ms),
    }


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else math.nan


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def bootstrap_ratio_of_medians(
    numerator: Sequence[float],
    denominator: Sequence[float],
    level: float = 0.90,
    iterations: int = 2000,
) -> tuple[float, float]:
    """A ``level`` confidence interval of median(numerator) / median(denominator), by resampling
    each sample with replacement (seeded: the same data give the same interval)."""
    if not numerator or not denominator:
        return math.nan, math.nan
    chooser = random.Random(0)
    ratios = sorted(
        statistics.median(chooser.choices(numerator, k=len(numerator)))
        / statistics.median(chooser.choices(denominator, k=len(denominator)))
        for _ in range(iterations)
    )
    tail = (1 - level) / 2
    return ratios[int(tail * iterations)], ratios[int((1 - tail) * iterations) - 1]
