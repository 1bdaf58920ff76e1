"""The geometry of the pages' plots, drawn as SVG by templates/plot.html: bar plots of the
statistics and line plots of a rating over time.

A plot is drawn PLOT_WIDTH user units wide, about the width a phone shows it at (390 px less the
page's margins), with text of TEXT_SIZE units: on a phone each unit is about 0.9 CSS px, so its
text is 12 CSS px at least; a wider screen shows it larger (tabletape.css caps its width). Every
plot carries a ``summary``, its text alternative.
"""

from __future__ import annotations

import math
from typing import Any, Final

# The plots' width in SVG user units, and the size of their text (templates/plot.html's classes
# in tabletape.css): 324 CSS px of a 390 px phone show 360 units, text of 14 units at 12.6 px.
PLOT_WIDTH: Final = 360
TEXT_SIZE: Final = 14
# The room a label's character takes along an axis, at TEXT_SIZE.
CHARACTER: Final = 8.5


def bar_plot(
    bars: list[tuple[str, float]],
    *,
    x_title: str,
    y_title: str,
    summary: str,
    totals: list[int] | None = None,
    horizontal: bool = False,
) -> dict[str, Any]:
    """A bar plot's geometry, for templates/plot.html (PLOT_WIDTH units wide, labels that do
    not overlap at TEXT_SIZE). ``summary`` is its text alternative."""
    if horizontal:
        return {**_horizontal(bars, x_title), "summary": summary}
    width, height, left, bottom, top = PLOT_WIDTH, 240, 54, 44, 16
    plot_height = height - bottom - top
    peak = max((value for _, value in bars), default=0)
    scale_top, step = nice_scale(peak, integral=all(float(v).is_integer() for _, v in bars))
    slot = (width - left - 8) / max(len(bars), 1)
    bar_width = max(min(slot * 0.7, 60), 2)
    shapes = []
    # Labels thin out when the bars are many: every nth shows, room enough for the longest.
    longest = max((len(label) for label, _ in bars), default=1)
    label_every = max(1, math.ceil((longest * CHARACTER + 8) / slot)) if bars else 1
    for index, (label, value) in enumerate(bars):
        bar_height = plot_height * value / scale_top if scale_top else 0
        x = left + slot * index + (slot - bar_width) / 2
        shapes.append(
            {
                "label": label,
                "value": value,
                "x": round(x, 2),
                "y": round(top + plot_height - bar_height, 2),
                "width": round(bar_width, 2),
                "height": round(bar_height, 2),
                "centre": round(x + bar_width / 2, 2),
                "show_label": index % label_every == 0,
                "total": totals[index] if totals else None,
            }
        )
    ticks = [
        {
            "value": shown_number(step * index),
            "y": round(top + plot_height * (1 - step * index / scale_top), 2),
        }
        for index in range(round(scale_top / step) + 1 if scale_top else 0)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "baseline": top + plot_height,
        "right": width - 8,
        "bars": shapes,
        "ticks": ticks if scale_top else [],
        "x_title": x_title,
        "y_title": y_title,
        "horizontal": False,
        "summary": summary,
    }


def _horizontal(bars: list[tuple[str, float]], x_title: str) -> dict[str, Any]:
    longest = max((len(label) for label, _ in bars), default=1)
    width, row = PLOT_WIDTH, 34
    left = min(max(60, round(longest * CHARACTER) + 16), 160)
    height = 24 + row * max(len(bars), 1) + 24
    peak = max((value for _, value in bars), default=0)
    scale_top, _ = nice_scale(peak)
    plot_width = width - left - 56
    shapes = []
    for index, (label, value) in enumerate(bars):
        bar_width = plot_width * value / scale_top if scale_top else 0
        y = 16 + row * index
        shapes.append(
            {
                "label": label,
                "value": value,
                "shown": shown_number(value),
                "x": left,
                "y": y,
                "width": round(bar_width, 2),
                "height": row - 10,
                "middle": y + (row - 10) / 2,
            }
        )
    return {
        "width": width,
        "height": height,
        "left": left,
        "bars": shapes,
        "x_title": x_title,
        "horizontal": True,
    }


def nice_scale(peak: float, *, integral: bool = False, intervals: int = 4) -> tuple[float, float]:
    """The top of an axis at or above ``peak``, and its tick step: about ``intervals`` steps of
    1, 2, 2.5 or 5 times a power of ten (whole steps for whole numbers). (0, 0) for nothing."""
    if peak <= 0:
        return 0, 0
    raw = peak / intervals
    power = 10 ** math.floor(math.log10(raw))
    multiples = (1, 2, 5, 10) if integral else (1, 2, 2.5, 5, 10)
    step = next(m * power for m in multiples if raw <= m * power * (1 + 1e-9))
    if integral:
        step = max(step, 1)
    return step * math.ceil(peak / step - 1e-9), step


def shown_number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def counted(value: float, noun: str) -> str:
    """``value`` with its noun, plural but for one: "1 game", "3 wins", "2.5 seats"."""
    return f"{shown_number(value)} {noun}{'' if value == 1 else 's'}"


def nice_range(low: float, high: float, intervals: int = 4) -> tuple[float, float, float]:
    """An axis from at most ``low`` to at least ``high`` (zero always in it: a rating starts
    there), in about ``intervals`` steps of 1, 2, 2.5 or 5 times a power of ten."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high - low <= 0:
        return 0.0, 1.0, 1.0
    raw = (high - low) / intervals
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if raw <= m * power * (1 + 1e-9))
    return step * math.floor(low / step + 1e-9), step * math.ceil(high / step - 1e-9), step


def line_plot(
    points: list[tuple[str, float]], *, x_title: str, y_title: str, summary: str
) -> dict[str, Any]:
    """A line through ``points`` (label, value), evenly spaced left to right in their order."""
    width, height, left, right, top, bottom = PLOT_WIDTH, 220, 52, 16, 16, 44
    plot_width, plot_height = width - left - right, height - top - bottom
    values = [value for _, value in points]
    low, high, step = nice_range(min(values, default=0.0), max(values, default=0.0))

    def y_of(value: float) -> float:
        return round(top + plot_height * (high - value) / (high - low), 2)

    gap = plot_width / (len(points) - 1) if len(points) > 1 else 0
    shapes = [
        {
            "label": label,
            "value": value,
            "shown": shown_number(round(value, 2)),
            "x": round(left + (gap * index if len(points) > 1 else plot_width / 2), 2),
            "y": y_of(value),
        }
        for index, (label, value) in enumerate(points)
    ]
    ticks = [
        {"value": shown_number(round(low + step * index, 6)), "y": y_of(low + step * index)}
        for index in range(round((high - low) / step) + 1)
    ]
    # The first and last game are numbered under the axis; more numbers would crowd a phone.
    x_labels = [(shape["x"], str(number)) for number, shape in enumerate(shapes, start=1)]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "baseline": top + plot_height,
        "zero": y_of(0.0),
        "points": shapes,
        "line": " ".join(f"{shape['x']},{shape['y']}" for shape in shapes),
        "ticks": ticks,
        "x_labels": [x_labels[0], x_labels[-1]] if len(x_labels) > 1 else x_labels,
        "x_title": x_title,
        "y_title": y_title,
        "summary": summary,
    }
