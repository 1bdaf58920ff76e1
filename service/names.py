"""A player's name, as every way in takes it: creating a game, importing a record, other apps'
plays and the names mapped onto them, the filters that look a name up.

A name is 1 to 64 characters, not blank, and holds no character a reader cannot see or that
breaks a line: a name that differs from another by an invisible character (a byte order mark, a
zero-width space, a right-to-left override) would count as another person in every statistic.
A name is taken in NFC, so that "Zoë" typed on one keyboard (one character) and on another ("e"
and a combining diaeresis) is one name.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 64
# The categories no name holds: control characters (a newline or NUL breaks every page and log
# that shows the name), format characters (bidirectional overrides, zero-width spaces, byte order
# marks, soft hyphens), line and paragraph separators, and lone surrogates (no UTF-8 for them).
UNSEEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def taken(name: str) -> str:
    """The name as it is stored and looked up: in NFC."""
    return unicodedata.normalize("NFC", name)


def problem(name: str) -> str | None:
    """Why ``name`` (already taken in NFC) is not a name, in words; None when it is one."""
    if not name.strip():
        return f"a name is 1 to {MAX_NAME} characters long, not blank"
    if len(name) > MAX_NAME:
        return f"a name is 1 to {MAX_NAME} characters long"
    if any(unicodedata.category(char) == "Cs" for char in name):
        return "a name cannot hold half a character (a lone surrogate, such as \\ud800)"
    if any(unicodedata.category(char) in UNSEEN for char in name):
        return (
            "a name cannot hold control characters, format characters (zero-width spaces, byte"
            " order marks, direction overrides, soft hyphens) or line and paragraph separators"
        )
    return None


def cleaned(name: str) -> str:
    """Another app's name as this service takes it: without the characters no name holds, in NFC,
    trimmed of surrounding spaces. It may be left blank or too long: ``problem`` says so."""
    kept = "".join(char for char in name if unicodedata.category(char) not in UNSEEN)
    return taken(kept).strip()


def unseen_ranges() -> str:
    """The characters no name holds, as the inside of a regular expression's class: ranges of
    ``\\uXXXX`` escapes, which Python and JSON Schema (ECMAScript) read alike. Those of the Basic
    Multilingual Plane only, less the surrogates: ECMAScript sees a character past it as two
    surrogates, so neither can be written for both (the service refuses them all the same)."""
    codes = [code for code in range(0x10000) if unicodedata.category(chr(code)) in UNSEEN - {"Cs"}]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(
        f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"
        for first, last in ranges
    )
