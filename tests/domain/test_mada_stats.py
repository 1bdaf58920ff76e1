"""What a finished game of Mada adds to the statistics: rounds, try_luck moves and lost ones.

The counters are read from the states; the checks here read the cards instead. In observed games
every try_luck names the card that came up, so whether it lost is the rule itself: a Cactus card
lower than the top of the player's pile (a Lemur or an empty pile takes anything).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from domain.game import Event, Game
from domain.mada import Mada, MadaState
from domain.viewers import Viewer

GAME = Mada()
SMALL_CATALOG = {
    "cactus": [{"value": value, "count": 2, "pears": value} for value in range(1, 7)],
    "lemur": 0,
    "double_lemur": 0,
    "scorpion": 0,
}


def play_out(
    players: int, seed: int, options: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[MadaState], MadaState]:
    """A random game to its end: its events, the state after each, and the initial state."""
    rng = random.Random(seed)
    initial = state = GAME.new_game(players, seed, GAME.options(options, players))
    events: list[dict[str, Any]] = []
    states: list[MadaState] = []
    while not state.finished:
        event = rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, event)
        events.append(event)
        states.append(state)
    return events, states, initial


def loses(pile: tuple[Any, ...], card: Any) -> bool:
    top = pile[-1] if pile else None
    return isinstance(card, int) and isinstance(top, int) and card < top


def lost_by_the_cards(events: list[dict[str, Any]], states: list[MadaState], initial: MadaState):
    before = [initial, *states[:-1]]
    return [
        index
        for index, event in enumerate(events)
        if event["type"] == "try_luck"
        and loses(before[index].piles[event["player"]], event["card"])
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_observed_try_luck_loses_exactly_when_its_card_is_below_the_pile(
    players: int, seed: int
) -> None:
    events, states, initial = play_out(players, seed, {"chance": "observed"})
    lost = lost_by_the_cards(events, states, initial)
    counters = GAME.stats_counters(events, states)
    assert counters["try_luck"] == sum(event["type"] == "try_luck" for event in events)
    assert counters["try_luck_lost"] == len(lost)
    # Every lost try_luck ends a round; the last round ends the game, lost or jammed.
    ended_by_a_loss = bool(lost) and lost[-1] == len(events) - 1
    assert counters["rounds"] == len(lost) + (0 if ended_by_a_loss else 1)


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("seed", range(6))
def test_seeded_try_luck_loses_when_the_top_of_the_draw_pile_is_below_the_pile(
    players: int, seed: int
) -> None:
    events, states, initial = play_out(players, seed, {"chance": "seeded"})
    before = [initial, *states[:-1]]
    tried = [index for index, event in enumerate(events) if event["type"] == "try_luck"]
    # Seeded events do not name the card; the draw pile's top does (unless a reshuffle comes first).
    known = [index for index in tried if before[index].draw_pile]
    counters = GAME.stats_counters(events, states)
    lost_known = sum(
        loses(before[index].piles[events[index]["player"]], before[index].draw_pile.cards[0])
        for index in known
    )
    assert counters["try_luck"] == len(tried)
    assert lost_known <= counters["try_luck_lost"] <= lost_known + len(tried) - len(known)
    assert 1 <= counters["rounds"] <= counters["try_luck_lost"] + 1


def test_a_game_that_jams_counts_its_unfinished_last_round() -> None:
    for seed in range(40):
        events, states, initial = play_out(
            2, seed, {"catalog": SMALL_CATALOG, "chance": "observed"}
        )
        if max(len(cards) for cards in states[-1].set_aside) < 5:
            lost = lost_by_the_cards(events, states, initial)
            assert GAME.stats_counters(events, states)["rounds"] == len(lost) + 1
            return
    pytest.fail("no small-deck game jammed: pick other seeds")


def test_first_player_is_the_option_the_game_was_created_with() -> None:
    _, states, _ = play_out(3, 7, {"first_player": 2})
    assert GAME.first_player(states[-1]) == 2
    assert GAME.first_player(states[0]) == 2


def test_summary_gives_rounds_per_game_and_how_often_try_luck_loses() -> None:
    summary = GAME.stats_summary({"rounds": 13, "try_luck": 8, "try_luck_lost": 2}, 2)
    assert summary == {"rounds_per_game": 6.5, "try_luck_loss_rate": 0.25}


def test_summary_without_games_or_without_try_luck_is_zeros() -> None:
    assert GAME.stats_summary({}, 0) == {"rounds_per_game": 0.0, "try_luck_loss_rate": 0.0}
    summary = GAME.stats_summary({"rounds": 4, "try_luck": 0, "try_luck_lost": 0}, 1)
    assert summary == {"rounds_per_game": 4.0, "try_luck_loss_rate": 0.0}


def test_mada_measures_its_length_in_rounds() -> None:
    assert GAME.length_counters == ("rounds",)


class Coin(Game[int]):
    """The least game there is, to see the defaults of the statistics' hooks."""

    name = "coin"
    rules_version = "coin/1"
    min_players = 2
    max_players = 2

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        return {}

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> int:
        return seed % 2

    def apply(self, state: int, event: Event) -> int:
        return state

    def legal_moves(self, state: int) -> list[dict[str, Any]]:
        return []

    def view(self, state: int, viewer: Viewer) -> dict[str, Any]:
        return {}

    def to_act(self, state: int) -> int | None:
        return None

    def result(self, state: int) -> dict[str, Any] | None:
        return {"winners": [state], "scores": [1 - state, state]}


def test_a_game_without_statistics_of_its_own_gets_the_defaults() -> None:
    coin = Coin()
    assert coin.first_player(1) == 0
    assert coin.stats_counters([{"type": "flip"}], [1]) == {}
    assert coin.stats_summary({}, 3) == {}
    assert coin.stats_summary({"flips": 9}, 3) == {"flips_per_game": 3.0}
    assert coin.stats_summary({"flips": 9}, 0) == {"flips_per_game": 0.0}
    assert coin.length_counters == ()
