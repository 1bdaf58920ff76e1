"""The defaults docs/configuration.md and docs/api.md give each setting are the configuration's
own, and the two documents give the same: a test, so that the docs cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

from service.config import DEFAULTS

ROOT = Path(__file__).resolve().parent.parent


def configuration_table(path: Path) -> dict[str, str]:
    """Setting name (without TABLETAPE_) -> its default cell, from the document's Configuration
    section."""
    text = path.read_text(encoding="utf-8")
    section = text[text.index("# Configuration") :]
    rows = {}
    for line in section.splitlines():
        found = re.match(r"\| `(?:TABLETAPE_)?([A-Z_]+)` \|.*\| ([^|]+) \|$", line)
        if found:
            rows[found.group(1)] = found.group(2).strip()
    return rows


def literal(cell: str) -> str | None:
    """The default when the cell is one literal (`32`), else None (words)."""
    found = re.fullmatch(r"`([^`]*)`(?: \(.*\))?", cell)
    return found.group(1) if found else None


def shown(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_the_readme_and_the_docs_give_each_setting_the_same_default() -> None:
    readme = configuration_table(ROOT / "docs" / "configuration.md")
    docs = configuration_table(ROOT / "docs" / "api.md")
    assert len(readme) >= 12 and len(docs) >= 12
    for name in readme.keys() & docs.keys():
        assert literal(readme[name]) == literal(docs[name]), name
        if literal(readme[name]) is None:
            assert readme[name] == docs[name] or name in ("REDIS_URL",), name


# Defaults the configuration leaves to another: ARCHIVE_DIR follows DATA_DIR, STREAM_LIMIT the
# worker class `tabletape serve` runs (both checked below, in words).
DECIDED_ELSEWHERE = ("ARCHIVE_DIR", "STREAM_LIMIT")


def test_each_documented_default_is_the_configurations() -> None:
    for path in (ROOT / "docs" / "configuration.md", ROOT / "docs" / "api.md"):
        for name, cell in configuration_table(path).items():
            value = literal(cell)
            if value is None or name not in DEFAULTS or name in DECIDED_ELSEWHERE:
                continue
            assert value == shown(DEFAULTS[name]), (path.name, name, value, DEFAULTS[name])
    # Those in words: no value, and what `serve` decides.
    assert DEFAULTS["GAMES"] == "" and DEFAULTS["REDIS_URL"] is None
    assert DEFAULTS["STREAM_LIMIT"] == 8  # gthread's; gevent's is 9/10 of --connections
    assert DEFAULTS["ARCHIVE_DIR"] is None  # DATA_DIR/archive, made so by load_config
