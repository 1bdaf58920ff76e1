"""Games that live only in the tests: they show that a new game is one package of its own, with no
line changed in domain/, service/ or workers/ (tests/games/tally)."""
