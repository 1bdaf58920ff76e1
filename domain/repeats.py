"""What a list from a request holds more than once, found in linear time.

Every check that values are distinct goes through here: counting each value with ``list.count``
costs the square of the list's length, and a request may be long (a body of names, a catalog's
cards) before anything else refuses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TypeVar

# What is checked for repeats: names and ids (strings), seats and card values (whole numbers).
_Value = TypeVar("_Value", int, str)


def repeated(values: Iterable[_Value]) -> list[_Value]:
    """The values given more than once, each once and sorted (the order a message quotes them)."""
    return sorted(value for value, times in Counter(values).items() if times > 1)
