"""The rate limit's counter (service.api.limits): fixed windows per client address."""

from __future__ import annotations

from service.api import limits
from service.api.limits import FixedWindows


def test_a_client_gets_its_amount_per_window_then_waits_for_the_next() -> None:
    windows = FixedWindows(amount=3, seconds=60)
    assert [windows.hit("a", 120.0 + n) for n in range(3)] == [None, None, None]
    assert windows.hit("a", 150.0) == 30.0  # refused: the window ends at 180
    assert windows.hit("b", 150.0) is None  # another client counts on its own
    assert windows.hit("a", 180.0) is None  # a new window


def test_clients_of_past_windows_are_forgotten_when_many_pile_up(monkeypatch) -> None:
    monkeypatch.setattr(limits, "_SWEEP_ABOVE", 2)
    windows = FixedWindows(amount=1, seconds=1)
    for client in ("a", "b", "c"):
        windows.hit(client, 10.5)
    windows.hit("d", 11.5)
    assert set(windows._counts) == {"d"}
    # Forgotten, "a" starts afresh; still counted, "d" is refused.
    assert windows.hit("a", 11.6) is None
    assert windows.hit("d", 11.7) is not None
