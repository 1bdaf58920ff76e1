"""Children that end with the process that started them (the embedded Redis, ``serve``'s archive
worker). A module of its own, importing nothing of Redis, so that commands that never touch a store
(``tabletape verify``) load none."""

from __future__ import annotations

import ctypes
import signal

# prctl(2)'s option: the signal a child receives when its parent dies.
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a child process before it starts: the kernel stops it with SIGTERM when its parent
    dies, even killed outright. (Linux only; elsewhere the parent's own stop is all there is.)"""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass
