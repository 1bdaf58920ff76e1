"""A BG Stats backup's bytes read as a stream (``ijson``), so that an import holds the file and
its plays, never the file's whole tree (which takes several times the file: api.md's 4x).

Two passes over the bytes, each in linear time. The first (``_Shape``) walks the file's events:
it checks that the body is one JSON document (UTF-8, no NaN, not nested deeper than
``max_depth``, and, where asked, no key given twice in one object), and keeps what is small: the
``names`` mapping and the ``players``, ``games`` and ``locations`` tables, which may come before
or after the plays. The second hands out the plays one at a time, each read whole
(``bgstats.read_play``) and let go.

ijson's C parser writes a lone surrogate escaped in a string (``\\ud800``, half of a character an
app cut in two) as ``?``: a file holding one is read by ijson's Python parser instead (slower),
which keeps it, so that only the play holding it is skipped, with its reason.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator, Mapping
from typing import Any

import ijson  # type: ignore[import-untyped]

from service.imports.bgstats import NotABackup, Tables, check_lists, read_play, tables_of
from service.imports.plays import Play, Repeats, Skipped

TOO_DEEP = "not a file this service reads: lists and objects nested too deep"
# What a file may nest when the caller sets no limit (the standard parser's own limit is near).
DEEPEST = 1024
_TABLES = ("players", "games", "locations")
# A surrogate escaped alone: a high half not followed by a low one, or a low half not preceded
# by a high one (fixed-width look-arounds: linear time).
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_PYTHON_PARSER = ijson.get_backend("python")
# The bytes the parser reads at once. ijson's C parser holds every event of what it read (a tuple
# and its value each) until they are taken: its default 64 KiB of bare plays make about 1 MiB of
# events, as much again as a file of 1 MiB (api.md's 4x). 8 KiB make a tenth of it, and parse no
# slower (figure 14 of benchmark.md).
_CHUNK = 8 * 1024


def read_backup(
    data: bytes,
    names: Mapping[str, str] | None = None,
    *,
    max_depth: int = DEEPEST,
    keys_once: bool = False,
) -> Iterator[Play | Skipped]:
    """Each play of the backup ``data`` that is not ignored, read whole or skipped with its
    reason, one at a time; the body is the export itself or ``{"export", "names"}``, whose names
    ``names`` (the command line's) override. NotABackup, before any play, when the body is not
    such a file (its ``details`` say what, for the API's answer)."""
    data = data.removeprefix(codecs.BOM_UTF8)
    parser = _PYTHON_PARSER if _LONE_SURROGATE.search(data) else ijson
    try:
        shape = _Shape.of(parser, data, max_depth, keys_once)
    except _BeyondC:
        # An integer past 64 bits (a bggId of 20 digits, left out by the reader): the Python
        # parser reads it.
        parser = _PYTHON_PARSER
        shape = _Shape.of(parser, data, max_depth, keys_once)
    root = shape.root()
    tables = tables_of(shape.tables[root])
    mapped = {**shape.names, **(names or {})}
    return _plays(parser, data, f"{root}plays.item", tables, mapped)


def _plays(
    parser: Any, data: bytes, prefix: str, tables: Tables, names: Mapping[str, str]
) -> Iterator[Play | Skipped]:
    # The file parsed in full once already: this pass finds no error the first did not.
    repeats = Repeats()
    for index, raw in enumerate(
        parser.items(data, prefix, use_float=True, buf_size=_CHUNK), start=1
    ):
        found = read_play(index, raw, tables, names, repeats)
        if found is not None:
            yield found


def _first_line(error: Exception) -> str:
    """The parser's message, its first line (it goes on to draw the place with arrows), cut
    short (it may quote a number of thousands of digits)."""
    text = error.args[0] if error.args else error
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    first = (str(text).strip().splitlines() or [""])[0]
    return first if len(first) <= 200 else f"{first[:200]}..."


class _BeyondC(Exception):
    """An integer that ijson's C parser cannot hold."""


class _Shape:
    """What the first pass keeps of the file's events (ijson's prefix, event, value): its
    checks, and its small tables."""

    @classmethod
    def of(cls, parser: Any, data: bytes, max_depth: int, keys_once: bool) -> _Shape:
        """The first pass over ``data`` with ``parser``; NotABackup for what is not JSON."""
        shape = cls(max_depth, keys_once)
        try:
            for prefix, event, value in parser.parse(data, use_float=True, buf_size=_CHUNK):
                shape.see(prefix, event, value)
        except NotABackup:
            raise
        except (ijson.JSONError, ValueError) as error:
            # ValueError: what the Python parser says of bytes that are not UTF-8, or of an
            # integer of thousands of digits.
            if parser is ijson and "integer overflow" in str(error):
                raise _BeyondC() from None
            raise NotABackup(f"not JSON: {_first_line(error)}") from None
        return shape

    def __init__(self, max_depth: int, keys_once: bool) -> None:
        self.max_depth = max_depth
        self.keys_once = keys_once
        # The lists and objects open at this point; the keys seen in each open object (None: a
        # list, or keys not checked).
        self.depth = 0
        self.open_keys: list[set[str] | None] = []
        self.root_kind: str | None = None
        # The kind of value (ijson's event) of each key of the root object ("") and of its
        # export object ("export.").
        self.kinds: dict[str, dict[str, str]] = {"": {}, "export.": {}}
        self.names: dict[str, str] = {}
        self.names_ok = True
        # The tables' items under the root and under "export", built as they come.
        self.tables: dict[str, dict[str, list[Any]]] = {
            root: {table: [] for table in _TABLES} for root in self.kinds
        }
        # The item being built: its table, its builder, the depth it opened at.
        self._building: tuple[list[Any], Any, int] | None = None

    def see(self, prefix: str, event: str, value: Any) -> None:
        if self.root_kind is None:
            self.root_kind = event
        opens = event in ("start_map", "start_array")
        if self._building is None and opens:
            self._open_item(prefix)
        if self._building is not None:
            self._build(event, value)
        if event == "map_key":
            self._key(value)
        elif opens:
            self._note(prefix, event)
            self.depth += 1
            if self.depth > self.max_depth:
                raise NotABackup(TOO_DEEP, {"body": f"at most {self.max_depth} levels of nesting"})
            self.open_keys.append(set() if self.keys_once and event == "start_map" else None)
        elif event in ("end_map", "end_array"):
            self.depth -= 1
            self.open_keys.pop()
            if self._building is not None and self.depth == self._building[2]:
                items, builder, _ = self._building
                items.append(builder.value)
                self._building = None
        else:
            self._note(prefix, event, value)

    def _key(self, key: str) -> None:
        seen = self.open_keys[-1]
        if seen is None:
            return
        if key in seen:
            raise NotABackup(
                f"the body gives the key {key!r} twice in one object: give each key once",
                {"body": f"{key!r} given twice"},
            )
        seen.add(key)

    def _note(self, prefix: str, event: str, value: Any = None) -> None:
        """A value begins at ``prefix``: note its kind if it is one of the root's or the
        export's, and keep it if it is one of the names."""
        if self.depth == 1:
            self.kinds[""][prefix] = event
            if prefix == "names":
                # No names is any value JSON counts as nothing: null, false, 0, "", {}, [].
                self.names_ok = event in ("start_map", "start_array") or not value
        elif self.depth == 2 and prefix.startswith("export."):
            self.kinds["export."][prefix.removeprefix("export.")] = event
        if self.depth == 2 and prefix.startswith("names."):
            if event == "string" and self.kinds[""]["names"] == "start_map":
                self.names[prefix.removeprefix("names.")] = value
            else:
                self.names_ok = False

    def _open_item(self, prefix: str) -> None:
        """Start building a table's item (a player, a game, a location) as it opens."""
        for root, tables in self.tables.items():
            for table, items in tables.items():
                inside = 2 if not root else 3
                if self.depth == inside and prefix == f"{root}{table}.item":
                    self._building = (items, ijson.ObjectBuilder(), self.depth)
                    return

    def _build(self, event: str, value: Any) -> None:
        assert self._building is not None
        self._building[1].event(event, value)

    def root(self) -> str:
        """Where the export is ("" the root, "export." under it); NotABackup when the body is
        not an export, or names is not a mapping of names."""
        if self.root_kind != "start_map":
            raise NotABackup("the body is a JSON object: the BG Stats export, or {export, names}")
        root = "export." if "export" in self.kinds[""] else ""
        if root:
            if not self.names_ok:
                raise NotABackup(
                    'names maps each name in the export to a name here: {"Ann": "Anna"}'
                )
            if self.kinds[""]["export"] != "start_map":
                raise NotABackup("the export is a JSON object with players, games and plays")
        check_lists(self.kinds[root])
        return root
