"""The ``tabletape`` command: the one package that composes the service and the workers.

Each group of commands has a module of its own; this one makes the group ``main`` and gathers
them. The configuration, the store and Redis are imported by the commands that use them, not at
the top of their modules: `tabletape verify` checks records with no server and no store, and
loads no Redis client.
"""

from __future__ import annotations

import click

from cli.records import audit, export, import_command
from cli.replay import replay
from cli.serve import serve
from cli.signing import keygen, verify
from cli.simulate import simulate
from cli.stats import stats
from cli.workers import reconcile_command, worker


@click.group(context_settings={"max_content_width": 100})
def main() -> None:
    """Tabletape: record, replay and audit tabletop games.

    Every command works on the service's Redis: the server REDIS_URL names (a plain Redis, or any
    node of a Redis Cluster; RQ's queue is then on the plain Redis QUEUE_REDIS_URL names) or, when
    it is unset, the embedded Redis that `tabletape serve` starts in TABLETAPE_DATA_DIR (default
    .data), and on the keys under TABLETAPE_KEY_PREFIX (default tt:). Archives are files in
    ARCHIVE_DIR (default DATA_DIR/archive). `tabletape COMMAND --help` tells more about each
    command.
    """


for command in (
    serve,
    worker,
    reconcile_command,
    audit,
    export,
    import_command,
    replay,
    simulate,
    keygen,
    verify,
    stats,
):
    main.add_command(command)
