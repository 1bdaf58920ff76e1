"""Signed records (api.md, "Signed records"): the note of a game's head, signed with the service's
Ed25519 key in C2SP's signed-note format; GET /keys; the note in the export, the archive and an
import; `tabletape keygen` and `tabletape verify`.

A note is checked here by code written from the format's text (``check_note_by_the_format``), not
by the service's own verifier: the key's hash recomputed, the Ed25519 signature checked with PyCA's
cryptography over the bytes the format says are signed. On the real Redis server.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import html
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from cli.serve import _ensure_signing_key
from service.signing import sign_head
from service.signing.keys import keygen, make_key, read_key, signer_name
from service.signing.note import Signer
from service.signing.verify import verify as verify_record
from service.store.archive import Archive
from tests.conftest import make_app
from tests.served import serve_refused
from tests.support.api import assert_error, auth, create, legal, new_record, play_to_the_end
from tests.support.workers import REPO, drain

SIGNER = "tabletape.test"


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    """The service's key, in the test's folder (never the user's)."""
    path = tmp_path / "keys" / "signing.key"
    make_key(path, SIGNER)
    return path


@pytest.fixture
def app_config(key_file: Path) -> dict[str, Any]:
    return {"SIGNING_KEY": str(key_file), "SIGNER_NAME": SIGNER}


def finished_game(client: FlaskClient, seed: int = 0) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben"], seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def current_vkey(client: FlaskClient) -> str:
    keys = client.get("/keys").json["keys"]
    assert keys[0]["current"] is True
    vkey: str = keys[0]["vkey"]
    return vkey


# The format, read from its text (C2SP signed-note; api.md "Signed records") ---------------------
def check_note_by_the_format(note: str, vkey: str) -> list[str]:
    """The note's text lines, once its signature by ``vkey`` holds; AssertionError otherwise.

    A verifier key is ``<name>+<key hash, 8 hex>+<base64 of 0x01 and the 32-byte key>``; the key
    hash is the first 4 bytes of SHA-256 of the name, a newline, 0x01 and the key. The note is its
    text, a blank line, and lines ``— <name> <base64 of key hash + 64-byte signature>``; the text,
    its last newline included, is what is signed, as UTF-8 bytes."""
    # The base64 may hold "+" itself: the first two "+" split the three parts.
    name, key_hash_hex, key_b64 = vkey.split("+", 2)
    key_data = base64.b64decode(key_b64)
    assert key_data[0] == 0x01 and len(key_data) == 33
    public_key = key_data[1:]
    key_hash = hashlib.sha256(name.encode() + b"\n" + b"\x01" + public_key).digest()[:4]
    assert key_hash.hex() == key_hash_hex
    text, _, signatures = note.partition("\n\n")
    signed = (text + "\n").encode("utf-8")
    assert signatures.endswith("\n")
    for line in signatures[:-1].split("\n"):
        assert line.startswith("\u2014 ")
        signer, encoded = line[2:].split(" ")
        data = base64.b64decode(encoded)
        if signer == name and data[:4] == key_hash:
            # Raises InvalidSignature unless the key signed these bytes.
            Ed25519PublicKey.from_public_bytes(public_key).verify(data[4:], signed)
            return text.split("\n")
    raise AssertionError(f"no signature of {name}+{key_hash_hex} in the note")


def test_a_finished_games_note_verifies_with_the_key_from_keys_as_the_format_says(
    client: FlaskClient,
) -> None:
    game = finished_game(client)
    response = client.get(f"/games/{game['id']}/checkpoint")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    note = response.get_data(as_text=True)
    keys = client.get("/keys").json["keys"]
    assert [(k["origin"], k["current"]) for k in keys] == [(SIGNER, True)]
    assert keys[0]["since"].endswith("Z")
    audit = client.get(f"/games/{game['id']}/audit").json
    times = exported(client, game)
    lines = check_note_by_the_format(note, keys[0]["vkey"])
    assert lines == [
        SIGNER,
        f"game {game['id']}",
        f"version {audit['version']}",
        f"head {audit['head_hash']}",
        "status finished",
        f"created {times['created_at']}",
        f"finished {times['finished_at']}",
    ]


def test_an_archived_games_note_says_archived_to_anyone(app: Flask, client: FlaskClient) -> None:
    game = finished_game(client)
    drain(app)
    response = client.get(f"/games/{game['id']}/checkpoint")
    assert response.status_code == 200
    lines = check_note_by_the_format(response.get_data(as_text=True), current_vkey(client))
    assert lines[4] == "status archived"
    told = client.get(f"/games/{game['id']}").json
    assert lines[5:] == [f"created {told['created_at']}", f"finished {told['finished_at']}"]


def test_the_signer_is_named_after_the_host_unless_signer_name_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("socket.gethostname", lambda: "club house+1")
    assert signer_name() == "club-house-1"
    assert signer_name("tabletape.example") == "tabletape.example"


def test_an_active_games_note_is_the_recorders_alone(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"], seed=3)
    client.post(f"/games/{game['id']}/events", json=legal(client, game)[0], headers=auth(game))
    assert_error(client.get(f"/games/{game['id']}/checkpoint"), 401, "unauthorized")
    seat = {"Authorization": f"Bearer {game['seat_tokens'][0]}"}
    assert_error(client.get(f"/games/{game['id']}/checkpoint", headers=seat), 401, "unauthorized")
    response = client.get(f"/games/{game['id']}/checkpoint", headers=auth(game))
    assert response.status_code == 200
    lines = check_note_by_the_format(response.get_data(as_text=True), current_vkey(client))
    head = client.get(f"/games/{game['id']}/audit", headers=auth(game)).json["head_hash"]
    # Not over: the note vouches for when it was created, and names no finish.
    created = client.get(f"/games/{game['id']}").json["created_at"]
    assert lines[2:] == ["version 1", f"head {head}", "status active", f"created {created}"]
    # No note is in the export of a game still being played.
    assert "checkpoint" not in client.get(f"/games/{game['id']}/export", headers=auth(game)).json


@pytest.mark.parametrize("key", ["missing", "not a key", "unreadable"])
def test_without_a_key_only_the_note_is_refused(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path, key: str
) -> None:
    path = tmp_path / "signing.key"
    if key == "not a key":
        path.write_text("not a key\n")
    elif key == "unreadable":
        # A folder where the file should be: reading it fails, whoever runs the tests.
        path.mkdir()
    keyless = make_app(
        real_redis,
        key_prefix,
        DATA_DIR=str(tmp_path / "data"),
        ARCHIVE_DIR=str(tmp_path / "archive"),
        SIGNING_KEY=str(path),
    ).test_client()
    game = finished_game(keyless)
    refused = keyless.get(f"/games/{game['id']}/checkpoint")
    assert_error(refused, 503, "unavailable")
    assert refused.headers["Retry-After"] == "60" and str(tmp_path) not in refused.text
    assert keyless.get("/keys").json == {"keys": []}
    exported = keyless.get(f"/games/{game['id']}/export")
    assert exported.status_code == 200 and "checkpoint" not in exported.json
    for read in ("", "/state", "/events", "/audit", "/view"):
        assert keyless.get(f"/games/{game['id']}{read}").status_code == 200, read
    # Nothing was made in the data folder behind the operator's back.
    assert not (tmp_path / "data" / "signing").exists()


# tabletape verify ---------------------------------------------------------------------------------
def exported(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    document: dict[str, Any] = client.get(f"/games/{game['id']}/export").json
    return document


def verify(tmp_path: Path, document: Any, *args: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path), *args])
    # Whatever the file holds, verify says so in a sentence: no exception escapes it.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def verify_by_command(tmp_path: Path, documents: list[Any], *args: str) -> list[str]:
    """`tabletape verify` run as a user runs it, on one file per document: its lines, each after
    the file's name; it exits non-zero unless every file holds (asserted), with no traceback."""
    paths = []
    for n, document in enumerate(documents, start=1):
        path = tmp_path / f"record-{n}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "cli", "verify", *paths, *args],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == paths, done.stdout + done.stderr
    holds = all(line.split(": ")[1] == "holds" for line in lines)
    assert (done.returncode == 0) == holds, done.stdout
    return [line.split(": ", 1)[1] for line in lines]


def test_an_exported_record_holds_with_the_services_key(
    client: FlaskClient, tmp_path: Path
) -> None:
    document = exported(client, finished_game(client))
    assert document["checkpoint_key"] == current_vkey(client)
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 0, said
    assert said.count("\n") == 1 and ": holds: " in said and "not pinned" not in said
    # Without --key: the key the file names, and the sentence says it is not pinned.
    code, said = verify(tmp_path, document)
    assert code == 0 and "not pinned" in said


def test_a_changed_note_is_refused(client: FlaskClient, tmp_path: Path) -> None:
    document = exported(client, finished_game(client))
    version = len(document["events"])
    document["checkpoint"] = document["checkpoint"].replace(
        f"version {version}\n", f"version {version - 1}\n"
    )
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 1
    assert "REFUSED" in said and "note does not verify" in said and "changed" in said


def test_a_note_of_another_key_is_refused(client: FlaskClient, tmp_path: Path) -> None:
    game = finished_game(client)
    document = exported(client, game)
    services_key = current_vkey(client)
    # Another key of the same name signs the same head: the file names it, the service does not.
    other = tmp_path / "other.key"
    make_key(other, SIGNER)
    record = client.application.extensions["tabletape"].get(game["id"])
    forged = sign_head(Signer(SIGNER, read_key(other)), record)
    document.update(forged.as_json())
    code, said = verify(tmp_path, document, "--key", services_key)
    assert code == 1
    # Named by its name and hash (the key's base64 may hold a "+" of its own).
    named = "+".join(services_key.split("+", 2)[:2])
    assert f"its note is not signed by {named} " in said
    # Without --key, the forger's key the file names checks out: the sentence says so.
    code, said = verify(tmp_path, document)
    assert code == 0 and "not pinned" in said


def test_a_record_with_one_move_changed_is_refused(client: FlaskClient, tmp_path: Path) -> None:
    document = exported(client, finished_game(client))
    # The first move, made by the other seat: the rules refuse it, and the sentence names it.
    first = document["events"][0]
    assert "player" in first
    first["player"] = 1 - first["player"]
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 1
    assert "the rules refuse it: event 1" in said


def test_a_record_whose_chain_is_broken_is_refused(client: FlaskClient, tmp_path: Path) -> None:
    document = exported(client, finished_game(client))
    # A move's time is in the chain: changed, the events no longer reach the head signed.
    document["events"][3]["at"] = "2020-01-01T00:00:00.000Z"
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 1
    assert "its note signs head" in said and "changed after the note was signed" in said


def test_an_archive_whose_chain_is_broken_is_refused_naming_the_event(
    app: Flask, client: FlaskClient, archive_dir: Path, tmp_path: Path
) -> None:
    game = finished_game(client)
    drain(app)
    document = Archive(archive_dir).read(game["id"])
    assert document is not None
    # The archive keeps its note, signed as archived, beside the events' hashes.
    lines = check_note_by_the_format(document["checkpoint"], current_vkey(client))
    assert lines[1:] == [
        f"game {game['id']}",
        f"version {document['version']}",
        f"head {document['head_hash']}",
        "status archived",
        f"created {document['created_at']}",
        f"finished {document['finished_at']}",
    ]
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 0, said
    # The file as written (gzip) is read too.
    done = CliRunner().invoke(
        main, ["verify", str(Archive(archive_dir).path(game["id"])), "--key", current_vkey(client)]
    )
    assert done.exit_code == 0, done.output
    document["events"][2]["hash"] = "0" * 64
    code, said = verify(tmp_path, document, "--key", current_vkey(client))
    assert code == 1 and "the chain is broken at event 3" in said


def test_verify_needs_no_redis_and_loads_no_redis_client(
    client: FlaskClient, tmp_path: Path
) -> None:
    document = exported(client, finished_game(client))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(document), encoding="utf-8")
    bad.write_text(json.dumps({**document, "seed": document["seed"] + 1}), encoding="utf-8")
    # Any import of redis fails in this process, and the store it would reach is a closed port.
    probe = "import sys\nsys.modules['redis'] = None\nfrom cli import main\nmain()\n"
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:9/0", "TABLETAPE_REDIS_URL": ""}
    done = subprocess.run(
        [sys.executable, "-c", probe, "verify", str(good), str(bad), "--key", current_vkey(client)],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith(f"{good}: holds: ")
    assert second.startswith(f"{bad}: REFUSED: ") and "seed commitment" in second
    alone = subprocess.run(
        [sys.executable, "-c", probe, "verify", str(good), "--key", current_vkey(client)],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert alone.returncode == 0, alone.stdout + alone.stderr


# Keys change; notes stay good --------------------------------------------------------------------
def test_after_keygen_the_new_key_signs_and_old_notes_verify_with_the_listed_key(
    client: FlaskClient, key_file: Path, tmp_path: Path
) -> None:
    game = finished_game(client)
    old_note = client.get(f"/games/{game['id']}/checkpoint").get_data(as_text=True)
    old_export = exported(client, game)
    old_vkey = current_vkey(client)
    new_vkey = keygen(key_file, SIGNER)
    keys = client.get("/keys").json["keys"]
    assert [(k["vkey"], k["current"]) for k in keys] == [(new_vkey.text, True), (old_vkey, False)]
    # The old note verifies with the key still listed; the service signs with the new one.
    check_note_by_the_format(old_note, keys[1]["vkey"])
    new_note = client.get(f"/games/{game['id']}/checkpoint").get_data(as_text=True)
    check_note_by_the_format(new_note, keys[0]["vkey"])
    with pytest.raises(AssertionError):
        check_note_by_the_format(new_note, old_vkey)
    code, said = verify(tmp_path, old_export, "--key", keys[1]["vkey"])
    assert code == 0, said


def test_tabletape_keygen_makes_a_new_current_key_and_keeps_the_old_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETAPE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TABLETAPE_SIGNER_NAME", SIGNER)
    monkeypatch.delenv("TABLETAPE_SIGNING_KEY", raising=False)
    monkeypatch.delenv("SIGNING_KEY", raising=False)
    first = CliRunner().invoke(main, ["keygen"])
    second = CliRunner().invoke(main, ["keygen"])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    listed = json.loads((tmp_path / "data" / "signing" / "key.keys").read_text())["keys"]
    assert [key["vkey"] for key in listed] == [
        first.output.split("verifier key ")[1].strip(),
        second.output.split("verifier key ")[1].strip(),
    ]


def test_serve_makes_the_key_at_its_first_start_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {"DATA_DIR": str(tmp_path / "data"), "SIGNING_KEY": None, "SIGNER_NAME": SIGNER}
    _ensure_signing_key(config)
    made = capsys.readouterr().out
    key = tmp_path / "data" / "signing" / "key"
    assert f"signing key made in {key}" in made and f"verifier key {SIGNER}+" in made
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    _ensure_signing_key(config)
    again = capsys.readouterr().out
    assert "made" not in again and again.split("verifier key ")[1] == made.split("verifier key ")[1]


# An import keeps the source's note --------------------------------------------------------------
def test_an_import_keeps_the_sources_note_beside_its_own(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    game = finished_game(client)
    source = exported(client, game)
    source_vkey = current_vkey(client)
    their_key = tmp_path / "elsewhere.key"
    make_key(their_key, "elsewhere.test")
    elsewhere = make_app(
        real_redis,
        f"{key_prefix}elsewhere:",
        ARCHIVE_DIR=str(tmp_path / "there"),
        DATA_DIR=str(tmp_path / "there"),
        SIGNING_KEY=str(their_key),
        SIGNER_NAME="elsewhere.test",
    ).test_client()
    imported = elsewhere.post("/games/import", json=source)
    assert imported.status_code == 201, imported.json
    copy = exported(elsewhere, imported.json)
    assert copy["source_checkpoints"] == [
        {"checkpoint": source["checkpoint"], "checkpoint_key": source_vkey}
    ]
    assert copy["checkpoint_key"] == current_vkey(elsewhere) != source_vkey
    # Either service's key checks the copy: the source's note is the source's, as it came.
    for vkey in (source_vkey, current_vkey(elsewhere)):
        code, said = verify(tmp_path, copy, "--key", vkey)
        assert code == 0, said


def test_an_import_refuses_a_note_that_is_not_one(client: FlaskClient) -> None:
    source = exported(client, finished_game(client))
    details = assert_error(
        client.post("/games/import", json={**source, "checkpoint": "not a note"}),
        400,
        "invalid_request",
    )
    assert "checkpoint" in details


# The viewer --------------------------------------------------------------------------------------
def test_the_viewer_of_a_finished_game_shows_its_note_its_key_and_how_to_check_it(
    client: FlaskClient,
) -> None:
    game = create(client, players=["Ana", "Ben"], seed=5)
    assert 'id="signed-note"' not in client.get(f"/games/{game['id']}/view").get_data(as_text=True)
    play_to_the_end(client, game, seed=5)
    page = client.get(f"/games/{game['id']}/view").get_data(as_text=True)
    note = client.get(f"/games/{game['id']}/checkpoint").get_data(as_text=True)
    vkey = current_vkey(client)
    assert 'id="signed-note"' in page
    assert html.escape(note) in page and vkey in page
    assert f"tabletape verify {game['id']}.json --key '{vkey}'" in page
    assert "golang.org/x/mod/sumdb/note" in page


# What a note vouches for beyond the head: the game, its status, its times; the replay, the result -
def refused(said: str, *named: str) -> None:
    """One sentence saying the file does not hold, naming what it changed."""
    assert said.startswith("REFUSED: ") and said.count(". ") == 0, said
    for name in named:
        assert name in said, said


def test_an_export_whose_times_are_not_the_notes_does_not_hold(
    client: FlaskClient, tmp_path: Path
) -> None:
    document = exported(client, finished_game(client))
    vkey = current_vkey(client)
    not_a_time = {**document, "finished_at": "not a time"}
    far_ahead = {**document, "created_at": "9999-01-01T00:00:00.000Z"}
    said = verify_by_command(tmp_path, [document, not_a_time, far_ahead], "--key", vkey)
    assert said[0].startswith("holds: ") and "created_at and finished_at" in said[0]
    refused(said[1], "finished_at", "not a time", document["finished_at"])
    refused(said[2], "created_at", "9999-01-01T00:00:00.000Z", document["created_at"])


def test_an_archive_whose_result_or_id_was_changed_does_not_hold(
    app: Flask, client: FlaskClient, archive_dir: Path, tmp_path: Path
) -> None:
    game = finished_game(client)
    drain(app)
    document = Archive(archive_dir).read(game["id"])
    assert document is not None
    # Seat 2 wins, with 999 points: a result the moves never gave.
    scores = document["result"]["scores"]
    forged = {"winners": [1], "scores": [999 if seat == 1 else s for seat, s in enumerate(scores)]}
    changed_result = {**document, "result": forged}
    zeroed_id = {**document, "id": "0" * len(document["id"])}
    said = verify_by_command(
        tmp_path, [document, changed_result, zeroed_id], "--key", current_vkey(client)
    )
    assert said[0].startswith("holds: "), said[0]
    refused(said[1], "result", "replay")
    refused(said[2], "id", game["id"])


def a_2019_play(client: FlaskClient) -> dict[str, Any]:
    """The export of a game played in March 2019, as this service signs it: a record of that
    date imported here (its own salt and players: a record of its own)."""
    played = new_record(exported(client, finished_game(client)))
    for name in ("checkpoint", "checkpoint_key"):
        played.pop(name)
    played["created_at"] = "2019-03-02T18:00:00.000Z"
    for n, event in enumerate(played["events"]):
        event["at"] = f"2019-03-02T18:{1 + n // 60:02d}:{n % 60:02d}.000Z"
    played["finished_at"] = played["events"][-1]["at"]
    imported = client.post("/games/import", json=played)
    assert imported.status_code == 201, imported.json
    return exported(client, imported.json)


def test_a_2019_play_moved_to_2025_does_not_hold(client: FlaskClient, tmp_path: Path) -> None:
    signed = a_2019_play(client)
    # Its finish moved on six years: still after its moves, and out of the hash chain.
    moved = {**signed, "finished_at": "2025-06-01T20:00:00.000Z"}
    said = verify_by_command(tmp_path, [signed, moved], "--key", current_vkey(client))
    assert said[0].startswith("holds: "), said[0]
    refused(said[1], "finished_at", "2025-06-01T20:00:00.000Z", signed["finished_at"])


def test_a_play_moved_to_another_date_is_not_imported_elsewhere(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    signed = a_2019_play(client)
    elsewhere = make_app(
        real_redis,
        f"{key_prefix}elsewhere:",
        ARCHIVE_DIR=str(tmp_path / "there"),
        DATA_DIR=str(tmp_path / "there"),
    ).test_client()
    moved = {**signed, "finished_at": "2025-06-01T20:00:00.000Z"}
    details = assert_error(elsewhere.post("/games/import", json=moved), 422, "illegal_move")
    assert set(details) == {"finished_at"} and signed["finished_at"] in details["finished_at"]
    created_later = {**signed, "created_at": "2019-03-02T18:00:00.500Z"}
    details = assert_error(elsewhere.post("/games/import", json=created_later), 422, "illegal_move")
    assert set(details) == {"created_at"}
    # Nothing was stored: the record as signed is imported, at its own date.
    imported = elsewhere.post("/games/import", json=signed)
    assert imported.status_code == 201, imported.json
    assert (
        elsewhere.get(f"/games/{imported.json['id']}").json["finished_at"] == signed["finished_at"]
    )


def earlier_note(key_file: Path, document: dict[str, Any], version: str) -> str:
    """A note of ``document``'s head as the service signed it before notes carried times, its
    version written ``version``."""
    lines = document["checkpoint"].split("\n")
    text = "\n".join([lines[0], lines[1], f"version {version}", lines[3], lines[4]]) + "\n"
    return Signer(SIGNER, read_key(key_file)).sign(text)


def test_a_note_signed_before_notes_carried_times_holds_and_says_its_times_are_not_covered(
    client: FlaskClient, key_file: Path, tmp_path: Path
) -> None:
    document = exported(client, finished_game(client))
    earlier = {
        **document,
        "checkpoint": earlier_note(key_file, document, str(len(document["events"]))),
    }
    code, said = verify(tmp_path, earlier, "--key", current_vkey(client))
    assert code == 0, said
    assert "its times are not covered" in said


@pytest.mark.parametrize("written", ["superscript", "arabic-indic", "leading zero"])
def test_a_notes_version_in_other_digits_does_not_hold(
    client: FlaskClient, key_file: Path, tmp_path: Path, written: str
) -> None:
    document = exported(client, finished_game(client))
    digits = str(len(document["events"]))
    version = {
        "superscript": digits.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")),
        "arabic-indic": digits.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
        "leading zero": "0" + digits,
    }[written]
    odd = {**document, "checkpoint": earlier_note(key_file, document, version)}
    code, said = verify(tmp_path, odd, "--key", current_vkey(client))
    assert code == 1 and said.count("\n") == 1, said
    assert "REFUSED" in said and "ASCII digits" in said


def test_a_file_verify_cannot_read_is_said_in_a_sentence_and_the_others_go_on(
    client: FlaskClient, tmp_path: Path
) -> None:
    document = exported(client, finished_game(client))
    vkey = current_vkey(client)
    said = verify_by_command(
        tmp_path, [{**document, "checkpoint_key": 12}, document, {**document, "events": "x"}]
    )
    refused(said[0], "checkpoint_key")
    assert said[1].startswith("holds: ")
    refused(said[2], "events")
    assert verify_by_command(tmp_path, [document], "--key", vkey)[0].startswith("holds: ")


# Any JSON value, as a field of the file would be written wrong.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_no_field_of_the_wrong_type_makes_verify_fail_with_an_exception(
    client: FlaskClient, data: st.DataObject
) -> None:
    document = fuzzed_record(client)
    where = data.draw(
        st.sampled_from([*document, *(f"events.0.{k}" for k in document["events"][0])])
    )
    value = data.draw(json_values)
    changed = copy.deepcopy(document)
    if where.startswith("events.0."):
        changed["events"][0][where.removeprefix("events.0.")] = value
    else:
        changed[where] = value
    verdict = verify_record(changed)
    assert isinstance(verdict.sentence, str) and "\n" not in verdict.sentence
    assert "cannot be read: an unforeseen" not in verdict.sentence


_FUZZED: dict[str, Any] = {}


def fuzzed_record(client: FlaskClient) -> dict[str, Any]:
    """One finished game's export (with the fields an archive file adds), made once."""
    if "record" not in _FUZZED:
        game = finished_game(client)
        document = exported(client, game)
        told = client.get(f"/games/{game['id']}").json
        document.update(
            id=game["id"], status="finished", result=told["result"], version=told["version"]
        )
        _FUZZED["record"] = document
    return copy.deepcopy(_FUZZED["record"])


# The key's name ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a\x01b", "a\x7fb", "a\u200bb"])
def test_a_signer_name_that_is_not_printable_stops_the_app_factory_saying_why(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path, key_file: Path, name: str
) -> None:
    with pytest.raises(ValueError, match="printable"):
        make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SIGNING_KEY=str(key_file),
                 SIGNER_NAME=name)  # fmt: skip


def test_tabletape_serve_with_a_signer_name_that_is_not_printable_exits_saying_why(
    tmp_path: Path, redis_url: str, key_prefix: str
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.endswith("SIGNER_NAME")},
        "REDIS_URL": redis_url,
        "TABLETAPE_DATA_DIR": str(tmp_path),
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "SIGNER_NAME": "a\x01b",
    }
    returncode, stdout, stderr = serve_refused(env, "--no-worker")
    assert returncode != 0
    assert "Traceback" not in stdout + stderr
    assert "printable" in stderr and "SIGNER_NAME" in stderr, stderr
