"""The numbers of a score sheet: exact, and written in their shortest form.

A number (scoresheet.md, Events) is an integer or a decimal with at most 3 digits after the
point, of absolute value at most 10^9, given as a JSON number. A parsed JSON body brings an
integer as ``int`` and anything with a point or an exponent as ``float``: a float is taken as the
decimal its shortest ``repr`` writes (``12.5`` is 12.5 and ``0.1`` is 0.1, never the binary
0.1000000000000000055...), so that repr must have no exponent and at most 3 decimals. A bool or a
string is not a number. ``1e3`` and ``1000.0`` parse to the same float: once parsed, nothing can
tell them apart, and both are taken as 1000; refusing the literal ``1e3`` (a 400 in the contract)
is for whoever reads the JSON text (``is_plain_literal``, for a ``parse_float`` hook).

The arithmetic is exact, with ``decimal.Decimal`` on the way in and out, and integers in between:
the state keeps each number as an integer count of thousandths (``Milli``), so totals add exactly
(0.1 + 0.2 is 0.3), in any order, and the state holds only integers (the snapshot codec's words).

Written out (``to_json``), a number is in its shortest form: an ``int`` when it is integral (2.0
is written 2), else the ``float`` nearest to the decimal, whose shortest ``repr`` (what ``json``
and ``orjson`` write) is exactly that decimal without trailing zeros (4.50 is written 4.5). That
holds while the decimal has at most 15 significant digits, so totals are kept within 10^12
(``TOTAL_LIMIT``): a move that would take a total past it is refused.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Final

from domain.errors import InvalidEventError

# A number as the state keeps it: thousandths, an exact integer.
Milli = int

SCALE: Final = 1000
DECIMALS: Final = 3
LIMIT: Final = 10**9
TOTAL_LIMIT: Final = 10**12
WHAT: Final = f"a JSON number, integer or with at most {DECIMALS} decimals, |n| <= 10^9"


def to_decimal(value: Any) -> Decimal | None:
    """The decimal a JSON number ``value`` says, or None when it is not a number the score sheet
    takes (a bool, a string, an exponent, more than 3 decimals, past 10^9)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            return None
        written = repr(value)
        if "e" in written or "E" in written:
            return None
        number = Decimal(written)
    else:
        return None
    exponent = number.as_tuple().exponent
    if not isinstance(exponent, int) or exponent < -DECIMALS or abs(number) > LIMIT:
        return None
    return number


def is_plain_literal(literal: str) -> bool:
    """Whether a JSON number's text is written without an exponent (``12.5``, ``-3``, not
    ``1e3``): what a reader of the JSON text checks, where the literal is still seen."""
    return "e" not in literal and "E" not in literal


def is_number(value: Any) -> bool:
    return to_decimal(value) is not None


def parse(value: Any, field: str) -> Milli:
    """A number of an event, in thousandths; InvalidEventError (a 400) naming ``field``."""
    number = to_decimal(value)
    if number is None:
        raise InvalidEventError(f"{field} must be {WHAT}, got {value!r}", {field: WHAT})
    return int(number.scaleb(DECIMALS))


def to_decimal_of(milli: Milli) -> Decimal:
    """Thousandths as the exact decimal they are, without trailing zeros."""
    number = Decimal(milli).scaleb(-DECIMALS)
    if number == number.to_integral_value():
        return Decimal(milli // SCALE)
    return number.normalize()


def to_json(milli: Milli) -> int | float:
    """Thousandths as the JSON value the state, the answers and the record carry: an ``int``
    when integral, else the float whose shortest repr is the decimal (the module's docstring)."""
    if milli % SCALE == 0:
        return milli // SCALE
    return float(to_decimal_of(milli))


def text(milli: Milli) -> str:
    """Thousandths in words: ``12``, ``4.5``, ``-3``, ``0.125``."""
    if milli % SCALE == 0:
        return str(milli // SCALE)
    return format(to_decimal_of(milli), "f")


def written(value: Any) -> Any:
    """A number of an event as the record writes it (shortest form: ``2.0`` -> ``2``, ``4.50``
    is already 4.5 once parsed); anything that is not a number, as it is."""
    number = to_decimal(value)
    return value if number is None else to_json(int(number.scaleb(DECIMALS)))
