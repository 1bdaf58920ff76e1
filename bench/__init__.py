"""The benchmark of Tabletape: ``.venv/bin/python -m bench [--quick]`` from the repository root.

It measures the product against baselines taken in the same run, on the same machine, so the
figures that matter are ratios, not absolute numbers:

1. appends through HTTP (the real API under gunicorn) vs. a bare Flask endpoint that only XADDs;
2. replaying a game from its stream vs. merely reading and decoding that stream;
3. the cost of an append early in a game vs. late in a long one;
4. the memory of the API's worker processes after 1,000 vs. 10,000 appends.

The report is printed and written to ``bench/results/latest.json`` (git-ignored). The targets are
the product's; the bench says whether each is met but never fails on one.
"""
