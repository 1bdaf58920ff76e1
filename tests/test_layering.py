"""The arrows between the packages go one way: the jobs (``workers/``) depend on the store and the
domain; the API and its read models (``service/``) never import the jobs, and enqueue them by
dotted name; the command line is the one place that composes both. ``domain/`` imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The command line composes the service and the workers: it may import both.
COMMAND_LINE_ROOM = "service/cli/"


def imported_packages(path: Path) -> set[str]:
    """The top-level packages a module imports, at any depth (imports inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.partition(".")[0])
    return found


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_the_service_never_imports_the_workers_but_from_the_command_line() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in modules("service")
        if not str(path.relative_to(ROOT)).startswith(COMMAND_LINE_ROOM)
        and "workers" in imported_packages(path)
    ]
    assert offenders == []


def test_the_domain_imports_neither_the_service_nor_the_workers() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in modules("domain")
        if {"service", "workers"} & imported_packages(path)
    ]
    assert offenders == []


def test_the_api_enqueues_the_archive_job_by_its_dotted_name() -> None:
    from service.store.queue import ARCHIVE_JOB
    from workers.archive import archive_game

    module, _, name = ARCHIVE_JOB.rpartition(".")
    assert (module, name) == (archive_game.__module__, archive_game.__name__)
