"""The service's objects, as the commands that work on the store build them."""

from __future__ import annotations

from typing import Any

import click


def load_services() -> Any:
    """The store, the queues and the use cases from the configuration; a setting the store
    cannot honour is said in a line, not a traceback."""
    from service.app import build_services
    from service.config import load_config
    from service.store.durability import DurabilityError

    try:
        return build_services(load_config())
    except DurabilityError as error:
        # A setting the store cannot honour: said in a line, not a traceback.
        raise click.ClickException(str(error)) from None
