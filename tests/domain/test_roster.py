"""The roster, pure: joins bring the names that counted as the joined one along (no chains),
parting leaves the others where they are, and a log of changes folds to the same roster in
whatever steps it was made."""

from __future__ import annotations

import random

from domain.roster import Roster, RosterChange, folded, joined, parted


def change(name: str, player: str | None) -> RosterChange:
    return RosterChange("2025-01-01T00:00:00.000Z", name, player)


def test_a_name_not_joined_counts_as_itself() -> None:
    roster = Roster()
    assert roster.player_of("Chloé") == "Chloé"
    assert roster.names_of("Chloé") == ["Chloé"]


def test_joining_points_every_name_at_its_player_directly() -> None:
    roster = joined(Roster(), "Chloe", "Chloé")
    roster = joined(roster, "chloe.b", "Chloe")  # Chloe's player, not Chloe
    assert dict(roster.players) == {"Chloe": "Chloé", "chloe.b": "Chloé"}
    assert roster.names_of("Chloé") == ["Chloé", "Chloe", "chloe.b"]


def test_a_player_joined_to_another_brings_its_names_along() -> None:
    roster = joined(joined(Roster(), "Chloe", "Chloé"), "Chloé", "chloe.b")
    assert dict(roster.players) == {"Chloe": "chloe.b", "Chloé": "chloe.b"}


def test_joining_a_player_to_one_of_its_own_names_makes_that_name_the_player() -> None:
    roster = joined(joined(Roster(), "Chloe", "Chloé"), "Chloé", "Chloe")
    assert dict(roster.players) == {"Chloé": "Chloe"}
    assert roster.names_of("Chloe") == ["Chloe", "Chloé"]


def test_parting_a_name_leaves_the_others_with_their_player() -> None:
    roster = joined(joined(Roster(), "Chloe", "Chloé"), "chloe.b", "Chloé")
    assert dict(parted(roster, "Chloe").players) == {"chloe.b": "Chloé"}
    # A player parted from nothing: nothing changes.
    assert parted(roster, "Chloé") == roster
    assert joined(roster, "Chloé", "Chloé") == roster


def test_any_log_folds_to_a_roster_without_chains() -> None:
    names = ["Ana", "Ben", "Chloe", "Chloé", "Dan", "Eve"]
    rng = random.Random(7)
    for _ in range(200):
        log = [
            change(rng.choice(names), rng.choice([*names, None]))
            for _ in range(rng.randint(0, 12))
        ]
        roster = folded(log)
        for name, player in roster.players.items():
            assert name != player
            assert player not in roster.players, (log, roster)
        # Every name is its player's, and its player lists it.
        for name in names:
            assert name in roster.names_of(roster.player_of(name))
