"""The rooms of the code and the one way their imports run (docs/architecture.md):

                                         cli  (the `tabletape` command)
                                       /     \
                                      v       v
    domain  <-  service.store  <-  service.api, service.pages, service.stats  <-  workers
                      ^                                                              |
                      +--------------------------------------------------------------+

    and between the store and the API and the pages, the use cases:

    service.store  <-  service.games  <-  service.api, service.pages

- ``domain/`` (rules, no I/O) imports nothing of the service or the workers;
- the store stands on the domain alone;
- the use cases (``service/games/``) stand on the domain, the store and the service's hall
  (errors), never on the API, the pages, the statistics or the command line;
- the workers hold the RQ jobs alone: they stand on the domain, the store, the statistics'
  entry points (a game's figures, their counting) and the configuration, never on the API or the
  pages; the API enqueues their jobs by dotted name;
- the statistics (``service/stats/``) are one room: the only one that knows where the figures and
  ratings lie (``service.stats.keys``), so the only one that writes them;
- the command line (``cli/``) is the top package: the only one that imports the workers, and
  imported by none; ``service/`` imports nothing of the workers;
- no module imports itself back through any other, at any depth, and
- nothing in ``cli/``, ``service/`` or ``workers/`` names a game: each game lives in its own
  package.

Imports are read from the source, those inside functions and under TYPE_CHECKING included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from domain import game_names

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("cli", "domain", "service", "workers")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_modules() -> dict[str, Path]:
    return {module_name(path): path for room in ROOMS for path in (ROOT / room).rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``path`` imports (``from a import b`` counts ``a.b`` when
    that is a module, else ``a``)."""
    found: set[str] = set()
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else base)
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    modules = source_modules()
    known = set(modules)
    return {name: imports_of(path, known) - {name} for name, path in modules.items()}


def room_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "service" and len(parts) > 2 else parts[0]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def offenders(allowed: dict[str, set[str]]) -> list[str]:
    """Imports from a room to a room it may not import, as 'module -> module'."""
    wrong = []
    for module, imported in sorted(import_graph().items()):
        room = room_of(module)
        if room not in allowed:
            continue
        for other in sorted(imported):
            if room_of(other) not in allowed[room] | {room}:
                wrong.append(f"{module} -> {other}")
    return wrong


def test_no_module_imports_itself_back_through_others() -> None:
    assert cycles(import_graph()) == []


def test_a_circle_of_imports_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_domain_imports_neither_the_service_nor_the_workers() -> None:
    assert offenders({"domain": set()}) == []


def test_the_store_stands_on_the_domain_alone() -> None:
    assert offenders({"service.store": {"domain"}}) == []


def test_the_signing_stands_on_the_domain_and_the_store_alone() -> None:
    # `tabletape verify` checks records with no server: the signing room loads no app.
    assert offenders({"service.signing": {"domain", "service.store"}}) == []


def test_the_use_cases_stand_on_the_store_never_on_the_views() -> None:
    rooms = {room_of(m) for m in source_modules() if m.startswith("service.games.")}
    assert rooms == {"service.games"}
    assert offenders({"service.games": {"domain", "service.store", "service"}}) == []


def test_the_workers_use_the_store_and_the_statistics_never_the_api_or_the_pages() -> None:
    allowed = {"domain", "service.store", "service.stats", "service.config", "service"}
    assert offenders({"workers": allowed}) == []
    # "service" is the package's __init__ (create_app): not for the workers either.
    assert [
        m for m, i in import_graph().items() if m.startswith("workers") and "service" in i
    ] == []


def test_the_workers_leave_the_statistics_to_their_room() -> None:
    # A job calls the statistics' entry points; how a game is counted, rated or read, and where
    # its figures lie, is the statistics room's alone.
    # (The rebuild is one: the roster's recount job, ``workers.roster``, runs it.)
    entry_points = {"service.stats.game_figures", "service.stats.counting", "service.stats.rebuild"}
    reached = {
        other
        for module, imported in import_graph().items()
        if room_of(module) == "workers"
        for other in imported
        if room_of(other) == "service.stats"
    }
    assert reached <= entry_points, reached - entry_points


def test_the_statistics_room_alone_knows_where_the_figures_lie() -> None:
    # The key layout is imported by the statistics' own modules alone, and no other file spells
    # its hash tag: nothing else can write (or read) a statistics key behind the room's back.
    assert [
        module
        for module, imported in import_graph().items()
        if "service.stats.keys" in imported and room_of(module) != "service.stats"
    ] == []
    spelt = [
        str(path.relative_to(ROOT))
        for room in ("cli", "service", "workers")
        for path in sorted((ROOT / room).rglob("*.py"))
        if "{stats}" in path.read_text(encoding="utf-8")
        and not path.is_relative_to(ROOT / "service" / "stats")
    ]
    assert spelt == []


def importers_of(package: str) -> list[str]:
    """The modules outside the top-level ``package`` that import any module of it."""
    return sorted(
        module
        for module, imported in import_graph().items()
        if module.split(".")[0] != package
        and any(other.split(".")[0] == package for other in imported)
    )


def test_only_the_command_line_imports_the_workers() -> None:
    # The service, the whole of it, stands apart from the workers: the command line composes them.
    assert {module.split(".")[0] for module in importers_of("workers")} == {"cli"}


def test_the_command_line_is_the_top_package_imported_by_none() -> None:
    assert importers_of("cli") == []


def test_a_forbidden_import_is_found() -> None:
    graph = import_graph()
    assert "service.store.records" in graph["service.games.appending"]
    # The use cases import the store: not allowed here.
    assert "service.games.appending -> service.store.records" in offenders({"service.games": set()})


def test_the_api_enqueues_the_archive_job_by_its_dotted_name() -> None:
    from service.store.queue import ARCHIVE_JOB
    from workers.archive import archive_game

    module, _, name = ARCHIVE_JOB.rpartition(".")
    assert (module, name) == (archive_game.__module__, archive_game.__name__)


def test_no_file_of_the_command_line_the_service_or_the_workers_names_a_game() -> None:
    names = game_names()
    assert {"mada", "madcala", "sifaka"} <= set(names)
    named = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
    found = []
    for room in ("cli", "service", "workers"):
        for path in sorted((ROOT / room).rglob("*")):
            if path.suffix not in (".py", ".js", ".html", ".css") or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if named.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_service_keeps_at_most_a_dozen_modules_in_its_hall() -> None:
    hall = sorted(path.name for path in (ROOT / "service").glob("*.py"))
    assert len(hall) <= 12, hall
