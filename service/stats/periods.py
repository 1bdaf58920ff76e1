"""The periods the statistics are kept by: UTC days, months and years, and a date range as the
fewest of them.

Every finished game adds its figures to the bucket of its day, of its month and of its year
(``D2025-05-01``, ``M2025-05``, ``Y2025``). A query from ``since`` to ``until`` then sums whole
years, whole months and the days left at either end: a year is read as one bucket, and any range
as at most about 70, however many games it covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta


@dataclass(frozen=True)
class DayFilter:
    """The days a query covers, both inclusive; None leaves that end open."""

    since: date | None = None
    until: date | None = None

    @property
    def open(self) -> bool:
        return self.since is None and self.until is None


def finished_day(finished_at: str) -> date:
    """The UTC date of a ``finished_at`` (ISO 8601, ``Z`` or an offset)."""
    moment = datetime.fromisoformat(finished_at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).date()


def periods_of(day: date) -> tuple[str, str, str]:
    """The buckets a game finished on ``day`` is added to: its day, its month, its year."""
    return f"D{day.isoformat()}", f"M{day.year:04d}-{day.month:02d}", f"Y{day.year:04d}"


def year_period(year: int) -> str:
    return f"Y{year:04d}"


def periods_between(since: date, until: date) -> list[str]:
    """Whole years, whole months and single days that together cover ``since``..``until``
    exactly, each once (empty when since > until). Years before 9999: ``periods_covering``
    clips a query to the years in which games finished."""
    periods: list[str] = []
    day = since
    while day <= until:
        if day.month == 1 and day.day == 1 and date(day.year, 12, 31) <= until:
            periods.append(year_period(day.year))
            day = date(day.year + 1, 1, 1)
        elif day.day == 1 and _last_of_month(day) <= until:
            periods.append(f"M{day.year:04d}-{day.month:02d}")
            day = _last_of_month(day) + _ONE_DAY
        else:
            periods.append(f"D{day.isoformat()}")
            day += _ONE_DAY
    return periods


def periods_covering(days: DayFilter, years: list[int]) -> list[str]:
    """The buckets to sum for ``days``, given the years in which any game finished: the whole
    years when the range is open, else the range clipped to those years."""
    if not years:
        return []
    first, last = date(min(years), 1, 1), date(max(years), 12, 31)
    if days.open:
        return [year_period(year) for year in sorted(years)]
    since = max(days.since or first, first)
    until = min(days.until or last, last)
    return periods_between(since, until)


_ONE_DAY = timedelta(days=1)


def _last_of_month(day: date) -> date:
    following = date(day.year + 1, 1, 1) if day.month == 12 else date(day.year, day.month + 1, 1)
    return following - _ONE_DAY
