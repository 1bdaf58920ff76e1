"""How the pages show Mada: the pears of each Cactus value (the drawing puts them on the cards) and
the fields of a move that name what chance brought."""

from __future__ import annotations

from typing import Any, Final

from domain.mada.state import MadaState

# In observed mode the recorder names the cards dealt, drawn and revealed.
CHANCE_FIELDS: Final = {"deal": ("cards",), "draw": ("card",), "try_luck": ("card",)}


def catalog_view(state: MadaState) -> dict[str, Any]:
    pears = state.catalog.pears
    return {"pears": {str(value): pears[value] for value in range(1, len(pears))}}
