"""``tabletape keygen`` and ``tabletape verify``: the key that signs games' heads, and the check
of exported records with no server and no store (service/signing/verify.py does the checking)."""

from __future__ import annotations

import os
import sys

import click


@click.command(short_help="Make a new signing key; the earlier ones stay listed.")
def keygen() -> None:
    """Make a new Ed25519 key for signing games' heads, in the file SIGNING_KEY names (else
    DATA_DIR/signing/key), and make it the current one: the service signs with it from its next
    note on (no restart needed). The key it replaces stays listed at GET /keys (in the list kept
    beside the key file, <key>.keys), so the notes it signed still verify. Prints the new
    verifier key, what `tabletape verify --key` takes."""
    from service.config import load_config
    from service.signing.keys import SigningKeyError, key_path, keygen, signer_name
    from service.signing.note import NoteError

    config = load_config()
    path = key_path(config)
    try:
        vkey = keygen(path, signer_name(config["SIGNER_NAME"]))
    except (SigningKeyError, NoteError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"new signing key in {path.resolve()}; verifier key {vkey}")


@click.command(short_help="Check exported records, with no server and no store.")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--key",
    "vkey",
    metavar="VKEY",
    help="the verifier key the note must be signed with (one of the service's GET /keys)",
)
def verify(files: tuple[str, ...], vkey: str | None) -> None:
    """Check exported records (GET /games/{id}/export, `tabletape export`, or an archive file),
    and tournaments' exports (GET /tournaments/{id}/export: every round paired again from the
    seed, every table's record checked, the standings counted again), from the files alone: no
    server, no store. For each: the seed against its commitment, a
    replay of every move by the rules, every event's hash and the chain to the head, and the
    signed note (its signature by VKEY, its head and version the record's, the file's id,
    status, created_at and finished_at the note's), and the file's result the replay's. One
    sentence per file: what holds, or the first thing that does not; a file it cannot read is
    said in a sentence too. Without --key the note is checked
    against the key the file names, which says nothing of who signed it (said so). Exit 0 only
    when every file holds."""
    from service.plugins import load_games
    from service.signing.note import NoteError, VerifierKey
    from service.signing.verify import records_in
    from service.signing.verify import verify as verify_record
    from service.tournaments.verify import is_tournament, verify_tournament

    # Games from other packages, as the service loads them (TABLETAPE_GAMES); no configuration
    # is read beyond it (service.config would load the store's client).
    load_games(os.environ.get("TABLETAPE_GAMES", os.environ.get("GAMES", "")))
    try:
        pinned = VerifierKey.parse(vkey) if vkey is not None else None
    except NoteError as error:
        raise click.BadParameter(str(error), param_hint="--key") from None
    failed = 0
    for path in files:
        for where, document in records_in(path):
            # A tournament's export (GET /tournaments/{id}/export) is checked whole: its rounds
            # paired again, every table's record, its standings.
            check = verify_tournament if is_tournament(document) else verify_record
            verdict = check(document, pinned)
            failed += not verdict.ok
            click.echo(f"{where}: {'holds' if verdict.ok else 'REFUSED'}: {verdict.sentence}.")
    sys.exit(1 if failed else 0)
