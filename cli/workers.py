"""``tabletape worker`` and ``tabletape reconcile``: the RQ worker and the recovery of the
archive jobs lost."""

from __future__ import annotations

import click

from cli.services import load_services


@click.command(short_help="Run an RQ worker: archives finished games.")
@click.option("--burst", is_flag=True, help="stop once the queues are empty")
@click.option(
    "--log-level",
    type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"]),
    default="INFO",
    show_default=True,
    help="what RQ logs (`tabletape serve`'s own worker logs warnings only)",
)
def worker(burst: bool, log_level: str) -> None:
    """Run an RQ worker for the service's queues (on QUEUE_REDIS_URL, else REDIS_URL, else the
    embedded Redis); its jobs read the games from REDIS_URL's store.

    At start it enqueues every finished game that is not archived yet (see ``reconcile``), and
    counts the statistics again from the archive when they were counted by an earlier version
    of the counting (one worker does, the others go on).
    """
    from service.stats.rebuild import recount_when_counted_otherwise
    from workers.queues import reconcile, run_worker

    services = load_services()
    reconcile(services.store, services.archive_queue)
    archive_dir = services.archive_queue.job_args["archive_dir"]
    recount_when_counted_otherwise(services.store.redis, services.store.prefix, archive_dir)
    # The queue's Redis (QUEUE_REDIS_URL): the store may be a cluster, where RQ does not run.
    run_worker(
        services.archive_queue.queue.connection,
        services.store.prefix,
        burst=burst,
        logging_level=log_level,
    )


@click.command("reconcile", short_help="Enqueue the archiving of games not archived yet.")
def reconcile_command() -> None:
    """Enqueue the archiving of every finished game that is not archived yet."""
    from workers.queues import reconcile

    services = load_services()
    click.echo(f"{reconcile(services.store, services.archive_queue)} games enqueued")
