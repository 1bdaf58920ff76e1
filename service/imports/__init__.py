"""Bringing a group's history in: plays logged in other apps, imported as finished score sheets.

- ``plays``: a play read whole (or skipped, with its reason), and the record it becomes;
- ``bgstats``: the BG Stats app's backup (JSON) read into plays;
- ``bgg``: BoardGameGeek's plays (XML, parsed as untrusted) read into plays;
- ``history``: the use case: each play claimed by its id, imported through
  ``Records.import_record``, in order of play; the answer counts what was imported, already
  there, differing from the game holding their id, and skipped.
"""

from service.imports.history import Differs, History, ImportOutcome
from service.imports.plays import Play, Skipped

__all__ = ["Differs", "History", "ImportOutcome", "Play", "Skipped"]
