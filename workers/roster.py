"""The recount job: once names are joined or parted (``service.players``), every figure and
rating is counted again from the archive under the roster as it is now, rated again in the order
played (``service.stats.rebuild.recount_for_roster``), on the archive queue, not in the request.
An archive job that counted games while the roster changed under it asks for one more
(``workers.archive``).
"""

from __future__ import annotations

from service.stats.rebuild import recount_for_roster as recount
from service.store.connection import close
from workers.archive import store_client


def recount_for_roster(key_prefix: str, archive_dir: str, redis_url: str = "") -> int:
    """Count the statistics again under the roster; the number of rebuilds run (0: they were
    counted under its latest version already, or another worker is at it and will look again)."""
    client = store_client(redis_url)
    try:
        return recount(client, key_prefix, archive_dir)
    finally:
        close(client)
