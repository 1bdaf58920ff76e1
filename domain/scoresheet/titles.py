"""A score sheet's title, and the key that makes two spellings of a title the same game.

The key (scoresheet.md, "The title's key"): the title in lower case, accents removed (NFKD, the
combining marks, Unicode's category M, dropped), each run of characters other than ``a-z`` and
``0-9`` replaced by one ``-``, and no ``-`` at either end: "7 Wonders: Duel" ->
``7-wonders-duel``, "Café International" -> ``cafe-international``. Letters with no ASCII
decomposition (``ß``, ``ø``, CJK) are not ``a-z``: they separate words like any other character,
and a title made only of them has an empty key, which is refused.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

from domain.errors import InvalidOptionsError

TITLE_MAX: Final = 100
_NOT_KEY: Final = re.compile(r"[^a-z0-9]+")


def title_key(title: str) -> str:
    """The key of ``title`` (may be empty: ``check_title`` refuses such a title)."""
    decomposed = unicodedata.normalize("NFKD", title)
    # A combining mark is Unicode's category M (Mn, Mc, Me): a variation selector or a vowel
    # sign is one, though of no combining class (unicodedata.combining gives them 0).
    bare = "".join(char for char in decomposed if not unicodedata.category(char).startswith("M"))
    return _NOT_KEY.sub("-", bare.lower()).strip("-")


def check_title(title: Any) -> str:
    """The ``title`` option: 1 to 100 characters, not blank, no control characters, and a
    non-empty key; else InvalidOptionsError naming ``title``."""
    if not isinstance(title, str):
        raise InvalidOptionsError(
            f"title must be a string, the game's name, got {title!r}", {"title": "a string"}
        )
    if not 1 <= len(title) <= TITLE_MAX:
        raise InvalidOptionsError(
            f"title must be 1 to {TITLE_MAX} characters, got {len(title)}",
            {"title": f"1 to {TITLE_MAX} characters"},
        )
    if not title.strip():
        raise InvalidOptionsError("title must not be blank", {"title": "not blank"})
    controls = [char for char in title if unicodedata.category(char) == "Cc"]
    if controls:
        raise InvalidOptionsError(
            f"title must have no control characters, got {controls[0]!r}",
            {"title": "no control characters"},
        )
    if not title_key(title):
        raise InvalidOptionsError(
            f"title {title!r} has an empty key: it needs a letter a-z or a digit (accents"
            " removed) for the statistics to know it by",
            {"title": "a letter a-z or a digit"},
        )
    return title
