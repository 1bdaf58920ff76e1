"""Who sees what, on every read path: random games of each game, in both chance modes, played to
the end over HTTP; after every event, every read path is asked by every viewer (the public, each
seat, the recorder) and checked against what that viewer could know at the table.

The checks are written from the contract, not from the games' code:
- no secret string reaches a viewer who may not know it: the seed, its salt, an event hash or the
  head hash, anywhere in any response (JSON or HTML);
- a state gives the viewer's own hand only, and none of the piles' orders or unseen cards;
- an event leaves out what only another seat saw (the contract's list, below) and says so;
- ``legal`` is a 401 for the public and a seat's own moves for a seat; ``export`` is the
  recorder's; the audit's head hash is the recorder's;
- once the game is over, everyone sees everything.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain import get_game
from service.games import move_words
from tests.record_check import check_finished_game
from tests.support.api import assert_error, auth, create, new_record
from tests.support.secrecy import PRIVATE_FIELDS

# State fields that tell the order of a pile or the cards no one has seen.
PILES = (
    "draw_pile", "unseen", "commoner_deck", "commoner_unseen", "counter_piles", "unseen_counters",
)  # fmt: skip

# Short games: small enough to read every path after every event.
GAMES = [
    ("mada", {}),
    ("madcala", {"health": 4}),
    ("sifaka", {}),
]
SEED = 12345678901234567890  # long enough that its digits never turn up by chance


@pytest.fixture
def app_config() -> dict[str, Any]:
    # A stream that ends at once after sending what is stored: it is read like any response.
    return {"STREAM_SECONDS": 0}


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Table:
    """One game and its viewers: None is the public, an int a seat, "recorder" the recorder."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.game = created
        self.url = f"/games/{created['id']}"
        self.tokens: dict[Any, str | None] = {None: None, "recorder": created["token"]}
        self.tokens.update(enumerate(created["seat_tokens"]))

    def get(self, path: str, viewer: Any) -> Any:
        return self.client.get(path, headers=bearer(self.tokens[viewer]))

    def secrets(self) -> list[str]:
        """What only the recorder may see while the game is on, as it would appear in text."""
        game = self.get(self.url, "recorder").json
        events = self.get(f"{self.url}/events", "recorder").json["events"]
        audit = self.get(f"{self.url}/audit", "recorder").json
        return [
            str(game["seed"]),
            game["seed_salt"],
            audit["head_hash"],
            *(event["hash"] for event in events),
        ]


def check_a_viewer_mid_game(table: Table, viewer: Any, secrets: list[str]) -> None:
    game_name = table.game["game"]
    full = table.get(f"{table.url}/state", "recorder").json
    recorded = table.get(f"{table.url}/events", "recorder").json["events"]
    answers = []

    resource = table.get(table.url, viewer)
    assert resource.status_code == 200
    assert "seed" not in resource.json and "seed_salt" not in resource.json
    assert len(resource.json["seed_commitment"]) == 64
    listed = table.get(f"/games?game={game_name}", viewer).json["games"]
    assert all("seed" not in game for game in listed if game["status"] == "active")
    answers += [resource, table.get(f"/games?game={game_name}", viewer)]

    state = table.get(f"{table.url}/state", viewer)
    shown = state.json
    assert not set(PILES) & set(shown), f"{viewer} sees a pile"
    for seat, hand in enumerate(shown["hands"]):
        assert hand == (full["hands"][seat] if seat == viewer else None)
    if game_name == "sifaka":
        for seat, (counters, score) in enumerate(
            zip(shown["counters"], shown["scores"], strict=True)
        ):
            mine = seat == viewer
            assert all((c["value"] is not None) == mine for c in counters)
            assert (score is not None) == mine
    answers.append(state)

    events = table.get(f"{table.url}/events", viewer)
    assert len(events.json["events"]) == len(recorded)
    players = table.game["players"]
    said_whole = table.get(f"{table.url}/events", "recorder").json["words"]
    for seen, whole, words, whole_words in zip(
        events.json["events"], recorded, events.json["words"], said_whole, strict=True
    ):
        private = PRIVATE_FIELDS[game_name].get(whole["type"], ())
        hidden = [] if whole.get("player") == viewer else [f for f in private if f in whole]
        expected = {k: v for k, v in whole.items() if k != "hash" and k not in hidden}
        if hidden:
            expected["hidden"] = hidden
        assert seen == expected
        # The move's words are said from the event as this viewer reads it, which leaves the
        # hidden fields out: they never quote what another seat saw alone.
        assert words == move_words(get_game(game_name), seen, players)
        if hidden:
            assert words != whole_words, (viewer, words)
            assert "hidden" in words or "a Terrain card" in words or "takes a counter" in words
            assert "worth" not in words and "Terrain card " not in words, words
    answers.append(events)

    streamed = table.get(f"{table.url}/stream", viewer)
    assert streamed.status_code == 200
    messages = [
        json.loads(line[len("data: ") :])
        for line in streamed.get_data(as_text=True).splitlines()
        if line.startswith("data: ")
    ]
    streamed.close()  # frees the stream's slot
    moves = [message for message in messages if "seq" in message]
    assert [message["words"] for message in moves] == events.json["words"]
    answers.append(streamed)

    legal = table.get(f"{table.url}/legal", viewer)
    if viewer is None:
        assert_error(legal, 401, "unauthorized")
    else:
        moves = legal.json["moves"]
        game = get_game(game_name)
        assert legal.json["words"] == [move_words(game, move, players) for move in moves]
        assert len(legal.json["base_words"]) == len(moves)
        if full["current_player"] != viewer:
            assert moves == []
        assert all(move.get("player", viewer) == viewer for move in moves)
    answers.append(legal)

    assert_error(table.get(f"{table.url}/export", viewer), 401, "unauthorized")
    # The signed note names the head hash: the recorder's alone until the end.
    assert_error(table.get(f"{table.url}/checkpoint", viewer), 401, "unauthorized")
    audit = table.get(f"{table.url}/audit", viewer)
    assert audit.json["ok"] is True and audit.json["head_hash"] is None
    answers.append(audit)

    for page in (f"{table.url}/view", f"{table.url}/record", "/"):
        answers.append(table.get(page, viewer))

    for answer in answers:
        text = answer.get_data(as_text=True)
        leaked = [secret for secret in secrets if secret in text]
        assert not leaked, f"{viewer} reads {leaked} at {answer.request.path}"


def check_everyone_sees_everything(table: Table) -> None:
    paths = [table.url, f"{table.url}/state", f"{table.url}/events", f"{table.url}/audit",
             f"{table.url}/export", f"{table.url}/state?at=1"]  # fmt: skip
    for path in paths:
        whole = table.get(path, "recorder").json
        whole.pop("viewer", None)
        for viewer in table.tokens:
            seen = table.get(path, viewer).json
            seen.pop("viewer", None)
            assert seen == whole, (viewer, path)


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize(("game_name", "options"), GAMES, ids=[name for name, _ in GAMES])
def test_every_viewer_reads_only_what_it_could_see_at_the_table(
    client: FlaskClient, game_name: str, options: dict[str, Any], chance: str
) -> None:
    created = client.post(
        "/games",
        json={"game": game_name, "players": ["Ana", "Ben"], "seed": SEED,
              "options": {**options, "chance": chance}},
    )  # fmt: skip
    assert created.status_code == 201, created.json
    table = Table(client, created.json)
    chooser = random.Random(f"{game_name} {chance}")
    while True:
        secrets = table.secrets()
        for viewer in table.tokens:
            if viewer != "recorder":
                check_a_viewer_mid_game(table, viewer, secrets)
        moves = table.get(f"{table.url}/legal", "recorder").json["moves"]
        answer = client.post(f"{table.url}/events", json=chooser.choice(moves),
                             headers=bearer(table.tokens["recorder"]))  # fmt: skip
        assert answer.status_code == 201, answer.json
        if answer.json["state"]["status"] != "active":
            break
        assert len(secrets) < 400, "the game does not end"
    check_everyone_sees_everything(table)
    game = table.get(table.url, None).json
    events = table.get(f"{table.url}/events", None).json["events"]
    assert (
        check_finished_game(game, events) == table.get(f"{table.url}/audit", None).json["head_hash"]
    )


def test_an_outside_client_recomputes_the_commitment_and_the_chain(client: FlaskClient) -> None:
    created = client.post(
        "/games", json={"game": "sifaka", "players": ["Ana", "Ben", "Caro"], "seed": 99}
    ).json
    table = Table(client, created)
    chooser = random.Random(99)
    while moves := table.get(f"{table.url}/legal", "recorder").json["moves"]:
        moved = client.post(f"{table.url}/events", json=chooser.choice(moves),
                            headers=bearer(created["token"]))  # fmt: skip
        assert moved.status_code == 201
    # A retraction earlier would be part of the chain like any event: none is needed here.
    game = client.get(table.url).json
    events = client.get(f"{table.url}/events").json["events"]
    head = check_finished_game(game, events)
    assert head == client.get(f"{table.url}/audit").json["head_hash"]
    # The chain covers the server's time: another ``at`` breaks it.
    events[3]["at"] = events[3]["at"].replace("Z", "1Z")
    with pytest.raises(AssertionError, match="event 4 does not match its hash"):
        check_finished_game(game, events)
    # And a seed that is not the one committed to is caught.
    with pytest.raises(AssertionError, match="commitment"):
        check_finished_game({**game, "seed": game["seed"] + 1}, events)


# Seats' appends ----------------------------------------------------------------------------------
def mada(client: FlaskClient) -> Table:
    created = client.post("/games", json={"game": "mada", "players": ["Ana", "Ben"], "seed": 5})
    return Table(client, created.json)


def stored_version(table: Table) -> int:
    version: int = table.get(table.url, "recorder").json["version"]
    return version


def test_a_seat_appends_its_own_move_when_its_decision_is_awaited(client: FlaskClient) -> None:
    table = mada(client)
    moves = table.get(f"{table.url}/legal", 0).json["moves"]
    assert moves and all(move["player"] == 0 for move in moves)
    answer = client.post(f"{table.url}/events", json=moves[0], headers=bearer(table.tokens[0]))
    assert answer.status_code == 201
    # The answer is the seat's own view: its hand, not the other's, and no hash.
    assert answer.json["state"]["hands"][1] is None and answer.json["state"]["hands"][0] is not None
    assert "hash" not in answer.json["event"]
    assert stored_version(table) == 1


def test_a_seat_appending_another_seats_move_is_403_and_stores_nothing(
    client: FlaskClient,
) -> None:
    table = mada(client)
    move = table.get(f"{table.url}/legal", "recorder").json["moves"][0]
    assert move["player"] == 0
    # Seat 1 makes seat 0's move, then a move in its own name out of turn.
    for body in (move, {**move, "player": 1}):
        answer = client.post(f"{table.url}/events", json=body, headers=bearer(table.tokens[1]))
        assert_error(answer, 403, "forbidden")
    assert table.get(f"{table.url}/legal", 1).json["moves"] == []
    assert stored_version(table) == 0


def test_a_seat_naming_another_player_in_its_own_turn_is_403(client: FlaskClient) -> None:
    table = mada(client)
    move = {**table.get(f"{table.url}/legal", 0).json["moves"][0], "player": 1}
    answer = client.post(f"{table.url}/events", json=move, headers=bearer(table.tokens[0]))
    assert_error(answer, 403, "forbidden")
    assert stored_version(table) == 0


def test_a_seat_cannot_retract_a_move(client: FlaskClient) -> None:
    table = mada(client)
    move = table.get(f"{table.url}/legal", 0).json["moves"][0]
    assert client.post(f"{table.url}/events", json=move,
                       headers=bearer(table.tokens[0])).status_code == 201  # fmt: skip
    for seat in (0, 1):
        answer = client.post(f"{table.url}/events", json={"type": "retract"},
                             headers=bearer(table.tokens[seat]))  # fmt: skip
        assert_error(answer, 403, "forbidden")
    assert stored_version(table) == 1


def test_a_token_of_another_game_is_401_on_every_request(client: FlaskClient) -> None:
    table, other = mada(client), mada(client)
    foreign = bearer(other.tokens["recorder"])
    move = table.get(f"{table.url}/legal", "recorder").json["moves"][0]
    assert_error(client.post(f"{table.url}/events", json=move, headers=foreign), 401,
                 "unauthorized")  # fmt: skip
    for path in ("", "/state", "/events", "/legal", "/audit", "/export", "/checkpoint",
                 "/stream"):  # fmt: skip
        assert_error(client.get(f"{table.url}{path}", headers=foreign), 401, "unauthorized")
    assert stored_version(table) == 0


def test_no_token_cannot_append(client: FlaskClient) -> None:
    table = mada(client)
    move = table.get(f"{table.url}/legal", "recorder").json["moves"][0]
    assert_error(client.post(f"{table.url}/events", json=move), 401, "unauthorized")
    assert stored_version(table) == 0


def test_an_active_games_export_is_the_recorders_and_imports_with_new_secrets(
    client: FlaskClient,
) -> None:
    table = mada(client)
    exported = table.get(f"{table.url}/export", "recorder").json
    assert exported["seed"] == 5 and exported["seed_salt"] == table.game["seed_salt"]
    # Imported into this same service it is refused: a record is imported once.
    assert client.post("/games/import", json=exported).status_code == 409
    copy = client.post("/games/import", json=new_record(exported))
    assert copy.status_code == 201
    assert copy.json["seed_salt"] != exported["seed_salt"]
    assert len(copy.json["seat_tokens"]) == 2 and copy.json["token"] != table.game["token"]


def test_only_the_recorder_is_told_which_moves_end_the_game(client: FlaskClient) -> None:
    """A seat's moves may name outcomes it cannot see (is that card really unseen? will the card
    revealed be lower?): which of them end the game would tell it. So /legal's `ending` is the
    recorder's only, and false throughout for a seat, whose page then does not ask first."""
    game = create(client, game="madcala", players=["Ana", "Ben"], seed=4,
                  options={"health": 1, "first_player": 0})  # fmt: skip
    for _ in range(200):
        listed = client.get(f"/games/{game['id']}/legal", headers=auth(game)).json
        if any(listed["ending"]):
            break
        assert client.post(f"/games/{game['id']}/events", json=listed["moves"][0],
                           headers=auth(game)).status_code == 201  # fmt: skip
    assert any(listed["ending"]), "no move of the game ended it"
    assert len(listed["ending"]) == len(listed["moves"])
    for token in game["seat_tokens"]:
        answer = client.get(f"/games/{game['id']}/legal",
                            headers={"Authorization": f"Bearer {token}"}).json  # fmt: skip
        assert not any(answer["ending"]) and len(answer["ending"]) == len(answer["moves"])
