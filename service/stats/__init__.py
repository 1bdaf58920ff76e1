"""The statistics of finished games, in one room: how a finished game becomes figures and
ratings, where they lie in Redis, and how the API reads them.

The archive job (``workers.archive``) calls this room once a game is archived:

1. ``game_figures``: what the game adds, read from its replay (pure: no Redis);
2. ``counting``: those figures written, once per game (``lua/count.lua``), and the game rated
   (``ratings``: ``model`` and ``ties``, pure; ``writing``, in Redis); a game reopened has them
   withdrawn;
3. ``rebuild``: every figure and rating recomputed from the archive files (``tabletape stats
   rebuild``), the same steps as the job's, so both give the same figures.

Where every figure and rating lies is ``keys``; the API (``api``, ``schemas``) and the pages read
them through ``reading``, ``ratings.reading`` and ``titles``, over ``periods``.
"""
