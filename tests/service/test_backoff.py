"""The archive job rides out a Redis that is briefly unreachable."""

from __future__ import annotations

import pytest
import redis

from workers import archive


def test_a_step_is_retried_with_growing_pauses_while_redis_is_unreachable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(archive.time, "sleep", pauses.append)
    failures = iter([redis.ConnectionError("down"), redis.TimeoutError("slow")])

    def step() -> str:
        for failure in failures:
            raise failure
        return "done"

    assert archive.with_backoff(step) == "done"
    assert pauses == [0.2, 0.5]


def test_a_redis_that_stays_down_fails_the_job_for_rq_to_retry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(archive.time, "sleep", lambda _: None)

    def step() -> str:
        raise redis.ConnectionError("down")

    with pytest.raises(redis.ConnectionError):
        archive.with_backoff(step)
