"""People and their names: the roster of who counts as whom (``domain.roster``), kept as a log
of changes with its projection (``store``), checked against the games played (``checks``), and
served at ``/players`` (``api``). The statistics read it through ``service.stats.people``.
"""
