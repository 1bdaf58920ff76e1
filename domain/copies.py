"""``dataclasses.replace`` for the states the reducers copy many times per event, made fast.

``replace``'s generic walk (each field's kind checked, a dict of arguments built, the frozen
``__init__``) took most of a replay's time (issue #23). ``changer(cls)`` builds, once per class,
a function that copies every field of a state into a new one, then sets the changed ones: the
same value ``replace`` gives (the tests compare the two). Its body is generated from the class's
fields, as ``dataclasses`` generates ``__init__``: one line per field, no loop, no dict. A name
that is not a field is still an AttributeError (the states have slots).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def changer(cls: type[T]) -> Callable[..., T]:
    """``with_changes(state, **changes)``: ``state`` (a frozen, slotted dataclass ``cls``) with
    the fields named in ``changes`` changed."""
    lines = ["def with_changes(state, **changes):", "    new = make(cls)"]
    lines += [f"    set_field(new, {f.name!r}, state.{f.name})" for f in fields(cls)]  # type: ignore[arg-type]
    lines += [
        "    for name, value in changes.items():",
        "        set_field(new, name, value)",
        "    return new",
    ]
    scope: dict[str, Any] = {"make": object.__new__, "set_field": object.__setattr__, "cls": cls}
    exec("\n".join(lines), scope)
    with_changes: Callable[..., T] = scope["with_changes"]
    with_changes.__qualname__ = with_changes.__name__ = f"with_changes_{cls.__name__}"
    with_changes.__doc__ = f"A {cls.__name__} with the fields named changed."
    return with_changes
