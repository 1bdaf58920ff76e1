"""The service's signing key, and the key set that keeps every key it signed with listed.

The key is a file holding the 32-byte Ed25519 seed in base64 on one line: ``SIGNING_KEY`` names
it, else it is ``DATA_DIR/signing/key``, which ``tabletape serve`` makes at first start (never the
app factory: under gunicorn each worker builds an app, and two of them would make two keys).

Beside the key, ``<key>.keys`` (JSON) lists the verifier key of every key signed with here and
the time it became current (``since``): a note outlives the key that signed it, so the public half
of an earlier key stays listed at ``GET /keys`` for as long as the file is kept. Private halves of
earlier keys are not kept: nothing needs them. ``tabletape keygen`` writes a new key in the key's
place and records it there; the earlier ones stay listed.

A key read is kept while its file is unchanged (its size and modification time): a key made by
``keygen`` while the service runs is taken at the next signature, without a restart.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import logging
import os
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from domain.errors import TabletapeError
from service.signing.note import NoteError, Signer, VerifierKey, check_name

log = logging.getLogger(__name__)


class NoSigningKeyError(TabletapeError):
    """The service has no signing key (yet): what needs a signature cannot be answered (503);
    everything else goes on. A key made meanwhile (`tabletape keygen`) is taken without a
    restart: a retry after a while may be answered."""

    retry_after = 60


class SigningKeyError(ValueError):
    """A key file or key set that cannot be read as one: said where, in a sentence."""


def default_key_path(data_dir: str | os.PathLike[str]) -> Path:
    """Where the service keeps the key it makes itself: in its data folder."""
    return Path(data_dir) / "signing" / "key"


def key_path(settings: Any) -> Path:
    """The key file of a configuration: ``SIGNING_KEY``, else the one in ``DATA_DIR``."""
    given = settings.get("SIGNING_KEY")
    return Path(given) if given else default_key_path(settings["DATA_DIR"])


def signer_name(configured: str | None = None) -> str:
    """``SIGNER_NAME``, else the machine's host name (made fit to name a key: printable, no
    space, no "+"). A SIGNER_NAME that cannot name a key is a NoteError saying why: refused at
    start (the app factory and `tabletape serve` call this), not a 500 at every note."""
    if configured:
        try:
            return check_name(configured)
        except NoteError as error:
            raise NoteError(f"SIGNER_NAME is refused: {error}") from None
    host = "".join(c if c.isprintable() and not c.isspace() else "-" for c in socket.gethostname())
    return host.replace("+", "-") or "tabletape"


def set_path(path: Path) -> Path:
    """The key set beside the key file ``path``."""
    return path.with_name(path.name + ".keys")


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def read_key(path: Path) -> Ed25519PrivateKey:
    """The key in ``path``; SigningKeyError when it is not a base64 32-byte seed on one line;
    FileNotFoundError when there is none."""
    text = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        seed = base64.b64decode(text, validate=True)
    except binascii.Error:
        seed = b""
    if len(seed) != 32:
        raise SigningKeyError(
            f"{path} does not hold an Ed25519 key (its 32-byte seed in base64 on one line,"
            " as `tabletape keygen` writes it)"
        )
    return Ed25519PrivateKey.from_private_bytes(seed)


def _seed_text(key: Ed25519PrivateKey) -> str:
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return base64.b64encode(raw).decode() + "\n"


def _write(path: Path, text: str, *, exclusive: bool = False, mode: int = 0o600) -> bool:
    """Write ``text`` to ``path`` whole (a temporary file renamed in place), readable by its
    owner alone for a key; with ``exclusive``, only if there is no such file yet (of two
    processes making the first key at once, one makes it). Whether it was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if exclusive:
            try:
                os.link(temporary, path)
            except FileExistsError:
                return False
            finally:
                os.unlink(temporary)
        else:
            os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True


@dataclass(frozen=True)
class ListedKey:
    """A key of the key set: its verifier key and when it became current."""

    vkey: VerifierKey
    since: str

    def as_json(self, current: bool) -> dict[str, Any]:
        return {
            "origin": self.vkey.name,
            "vkey": self.vkey.text,
            "since": self.since,
            "current": current,
        }


def read_set(path: Path) -> list[ListedKey]:
    """The keys listed beside the key file ``path``, oldest first ([] when there is no list)."""
    try:
        document = json.loads(set_path(path).read_text(encoding="utf-8"))
        return [
            ListedKey(VerifierKey.parse(entry["vkey"]), str(entry["since"]))
            for entry in document["keys"]
        ]
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError, NoteError) as error:
        raise SigningKeyError(f"{set_path(path)} is not a list of keys: {error}") from None


def _write_set(path: Path, keys: list[ListedKey]) -> None:
    entries = [{"vkey": key.vkey.text, "since": key.since} for key in keys]
    _write(set_path(path), json.dumps({"keys": entries}, indent=1) + "\n", mode=0o644)


def recorded(path: Path, vkey: VerifierKey, since: str) -> list[ListedKey]:
    """The key set with ``vkey`` in it (added as the newest, ``since`` then, when it was not),
    written back when it changed and the folder lets it be: a key set by hand in SIGNING_KEY is
    listed from its first use. In a folder the service may not write to, the list is kept in
    memory for this process."""
    keys = read_set(path)
    if any(key.vkey == vkey for key in keys):
        return keys
    keys.append(ListedKey(vkey, since))
    with contextlib.suppress(OSError):
        _write_set(path, keys)
    return keys


def make_key(path: Path, name: str) -> bool:
    """Make the first key at ``path`` unless there is one; whether it made it."""
    made = _write(path, _seed_text(Ed25519PrivateKey.generate()), exclusive=True)
    recorded(path, Signer(name, read_key(path)).verifier, now())
    return made


def keygen(path: Path, name: str) -> VerifierKey:
    """A new key in ``path``'s place, current from now; the one it replaces stays listed (its
    notes still verify). The new verifier key."""
    try:
        old = Signer(name, read_key(path)).verifier
    except FileNotFoundError:
        old = None
    if old is not None:
        # Listed before it is replaced, with its first use if known (else the file's time).
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(path.stat().st_mtime))
        recorded(path, old, since)
    key = Ed25519PrivateKey.generate()
    _write(path, _seed_text(key))
    vkey = Signer(name, key).verifier
    recorded(path, vkey, now())
    return vkey


class KeyRing:
    """The key a service signs with and the keys it lists, read from their files as they are
    now: a change of the key file (``tabletape keygen``) is seen at the next use."""

    def __init__(self, path: str | os.PathLike[str], name: str) -> None:
        self.path = Path(path).resolve()
        self.name = name
        self._read: tuple[tuple[int, int], Signer, list[ListedKey]] | None = None

    def _current(self) -> tuple[Signer, list[ListedKey]]:
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            # Where the key is looked for is the operator's to know, not every client's.
            log.warning("no signing key in %s", self.path)
            raise NoSigningKeyError(
                "this service has no signing key yet: whoever runs it makes one with `tabletape"
                " keygen` (or `tabletape serve` at its first start), or names one in SIGNING_KEY"
            ) from None
        except OSError as error:
            raise SigningKeyError(f"{self.path} cannot be read: {error}") from None
        seen = (stat.st_size, stat.st_mtime_ns)
        if self._read is None or self._read[0] != seen:
            try:
                signer = Signer(self.name, read_key(self.path))
            except OSError as error:
                raise SigningKeyError(f"{self.path} cannot be read: {error}") from None
            first_use = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stat.st_mtime))
            self._read = (seen, signer, recorded(self.path, signer.verifier, first_use))
        return self._read[1], self._read[2]

    def signer(self) -> Signer:
        """The current key; NoSigningKeyError when there is none."""
        return self._current()[0]

    def listed(self) -> list[dict[str, Any]]:
        """``GET /keys``'s list: the current key first, then the earlier ones, newest first.
        Without a key (none yet, or its file unreadable), the keys listed before, none current:
        their notes still verify."""
        try:
            signer, keys = self._current()
        except (NoSigningKeyError, SigningKeyError):
            return [key.as_json(False) for key in reversed(read_set(self.path))]
        current = signer.verifier
        ordered = [key for key in keys if key.vkey == current]
        ordered += [key for key in reversed(keys) if key.vkey != current]
        return [key.as_json(key.vkey == current) for key in ordered]
