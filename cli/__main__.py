"""``python -m cli``: the ``tabletape`` command, where it is not installed as a script (the
archive worker that ``tabletape serve`` supervises is started so, with the server's Python)."""

from cli import main

main()
