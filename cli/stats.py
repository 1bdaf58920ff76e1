"""``tabletape stats``: the statistics' maintenance commands."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import click


@click.group()
def stats() -> None:
    """Statistics of finished games."""


@stats.command(short_help="Recompute the statistics from the archive files.")
def rebuild() -> None:
    """Recompute every statistic from the archive files alone, ratings included, and swap them
    in at once; say how many games it counted, and how fast, and which files it skipped (one
    that cannot be counted is named with its reason, and the others are counted)."""
    # Imported here: `tabletape` loads this group for every command, and most need no store.
    from service.config import load_config
    from service.plugins import load_games
    from service.stats.game_figures import StatsError
    from service.stats.rebuild import rebuild_stats
    from service.store.connection import close, connect
    from service.store.embedded import ensure_embedded_redis

    config = load_config()
    load_games(config["GAMES"])
    url = config["REDIS_URL"] or ensure_embedded_redis(config["DATA_DIR"])
    # A plain Redis or a cluster: the statistics' keys share one slot, the rebuild works on either.
    client = connect(url, decode_responses=True)
    archive_dir = config["ARCHIVE_DIR"]
    began = time.perf_counter()
    skipped: list[str] = []
    try:
        games = rebuild_stats(
            client, config["KEY_PREFIX"], archive_dir, progress=_bar, skipped=skipped.append
        )
    except StatsError as error:
        # The live statistics are left as they were: say which file stopped the rebuild.
        raise click.ClickException(str(error)) from error
    finally:
        close(client)
    seconds = time.perf_counter() - began
    for reason in skipped:
        click.echo(f"skipped {reason}", err=True)
    click.echo(
        f"{games} finished games counted from {archive_dir} in {seconds:.1f} s"
        f" ({games / seconds if seconds else 0:.0f} games/s)"
        + (f"; {len(skipped)} archive files skipped, named above" if skipped else "")
    )


def _bar(paths: list[Path]) -> Iterator[Path]:
    with click.progressbar(paths, label="Counting archived games") as bar:
        yield from bar
