"""A score sheet's title, and the key that makes two spellings of a title the same game.

The key (scoresheet.md, "The title's key"): the title case-folded (``str.casefold``), decomposed
by NFKD, every combining mark (Unicode's category M) dropped, composed again (NFC), each run of
characters that are not letters or digits (Unicode's categories L and N) replaced by one ``-``,
and no ``-`` at either end. Letters of every script are kept: "7 Wonders: Duel" ->
``7-wonders-duel``, "Café International" -> ``cafe-international``, "Straße" -> ``strasse``,
"Καρκασόν" -> ``καρκασον``, "将棋" -> ``将棋``. A title with neither a letter nor a digit ("???",
"🎲") has an empty key, which is refused."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import groupby
from typing import Any, Final

from domain.errors import InvalidOptionsError

TITLE_MAX: Final = 100


# Cached: a game's listings ask for its title's key several times as it is stored, and an
# import of a group's history asks for a few dozen titles' keys thousands of times.
@lru_cache(maxsize=4096)
def title_key(title: str) -> str:
    """The key of ``title`` (may be empty: ``check_title`` refuses such a title)."""
    # Case-folded before decomposing, so that "ß" is "ss" and a final sigma the sigma it is.
    decomposed = unicodedata.normalize("NFKD", title.casefold())
    # A combining mark is Unicode's category M (Mn, Mc, Me): a variation selector or a vowel
    # sign is one, though of no combining class (unicodedata.combining gives them 0).
    bare = "".join(char for char in decomposed if not unicodedata.category(char).startswith("M"))
    # Composed again: NFKD split each Hangul syllable into its jamo, which are letters to keep
    # as the syllables a reader types.
    composed = unicodedata.normalize("NFC", bare)
    # By category, not by regex: ``\w`` would also keep "_" and some numeric symbols.
    runs = groupby(composed, key=_is_letter_or_digit)
    return "-".join("".join(chars) for kept, chars in runs if kept)


def _is_letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in ("L", "N")


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
            f"title {title!r} has an empty key: it needs a letter or a digit for the statistics"
            " to know it by",
            {"title": "a letter or a digit"},
        )
    return title
