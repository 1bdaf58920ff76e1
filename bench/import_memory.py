"""What one import of a group's history costs in memory: a BG Stats backup and BoardGameGeek's
XML of the same plays, made here (``tests.support.history``), and each of them again of bare
plays (an id, a game, a date and two players: the most plays to the byte, the worst case), each
POSTed to the service in a process of its own, on the bench's Redis. After a small import has
warmed the process up and the file is read, its resident memory is read (``/proc/self/statm``);
after the import, its peak (``VmHWM``): the growth, as a multiple of the file's size, is what
one import costs beyond the file's bytes as the client holds them.
``python -m bench.import_memory [--plays N] [--only KIND...]``.

The contract's goal: an import's memory within 4x its file's size.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.redis_target import redis_target
from bench.servers import REPO
from tests.support.history import bare_backup, bare_bgg_xml, bgg_xml, random_backup

GOAL_MULTIPLE = 4.0
_PATHS = {"bgstats": ("/imports/bgstats", "application/json"),
          "bgg": ("/imports/bgg", "application/xml"),
          "bgstats_bare": ("/imports/bgstats", "application/json"),
          "bgg_bare": ("/imports/bgg", "application/xml")}  # fmt: skip


def files(plays: int, folder: Path) -> dict[str, Path]:
    """The same ``plays`` plays as a BG Stats backup and as BoardGameGeek's XML; as many bare
    plays in each."""
    backup = random_backup(plays, titles=40, names=12, seed=36)
    xml = bgg_xml([
        {"id": n, "date": play["playDate"][:10], "length": play["durationMin"],
         "name": backup.games[play["gameRefId"] - 1]["name"], "objectid": 1000 + play["gameRefId"],
         "players": [{"name": backup.players[score["playerRefId"] - 1]["name"],
                      "score": score["score"], "win": score["winner"]}
                     for score in play["playerScores"]]}
        for n, play in enumerate(backup.plays, start=1)
    ])  # fmt: skip
    made = {"bgstats": folder / "backup.json", "bgg": folder / "plays.xml",
            "bgstats_bare": folder / "bare.json", "bgg_bare": folder / "bare.xml"}  # fmt: skip
    made["bgstats"].write_bytes(json.dumps(backup.export()).encode())
    made["bgg"].write_bytes(xml)
    made["bgstats_bare"].write_bytes(bare_backup(plays, seed=36))
    made["bgg_bare"].write_bytes(bare_bgg_xml(plays, seed=36))
    return made


def measure_one(kind: str, path: str, url: str, prefix: str, folder: str) -> dict[str, Any]:
    """(In the child process.) One import of ``path``: its size, the RSS growth, the seconds."""
    from service import create_app

    app = create_app({
        "REDIS_URL": url, "KEY_PREFIX": prefix, "DATA_DIR": folder,
        "ARCHIVE_DIR": f"{folder}/archive", "RATE_LIMIT": "",
    })  # fmt: skip
    client = app.test_client()
    route, content_type = _PATHS[kind]
    # The warm-up file is of the route's own kind (a backup, or XML).
    warm = {"/imports/bgstats": json.dumps(random_backup(3, 2, 6, seed=1).export()).encode(),
            "/imports/bgg": bgg_xml([{"id": 1, "date": "2020-01-01", "name": "Azul",
                                      "players": [{"name": "Ann", "win": True}]}]),
            }[route]  # fmt: skip
    assert client.post(route, data=warm, content_type=content_type).status_code == 200
    body = Path(path).read_bytes()
    before = _resident_bytes()
    began = time.perf_counter()
    response = client.post(route, data=body, content_type=content_type)
    seconds = time.perf_counter() - began
    peak = _peak_resident_bytes()
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return {
        "bytes": len(body),
        "imported": response.json["imported"],
        "growth_bytes": peak - before,
        "multiple": (peak - before) / len(body),
        "seconds": seconds,
    }


def _peak_resident_bytes() -> int:
    """The process's peak resident memory (Linux), its own: not ``ru_maxrss``, which a process
    started by ``subprocess`` begins with its parent's peak (Linux keeps the high-water mark of
    the memory an exec replaces: the bench's own, which holds every file it made, 160 MiB more
    than this process ever held at 40,000 plays)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def _resident_bytes() -> int:
    """The process's resident memory now (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=4_000)
    parser.add_argument(
        "--only", nargs="+", choices=sorted(_PATHS), help="these files alone (default: all)"
    )
    arguments = parser.parse_args()
    report: dict[str, Any] = {"plays": arguments.plays}
    with redis_target() as target:
        made = files(arguments.plays, target.workdir)
        made = {kind: path for kind, path in made.items() if kind in (arguments.only or made)}
        for kind, path in made.items():
            folder = target.workdir / kind
            folder.mkdir()
            code = (
                "import json, sys; from bench.import_memory import measure_one;"
                " print(json.dumps(measure_one(*sys.argv[1:])))"
            )
            done = subprocess.run(
                [sys.executable, "-c", code, kind, str(path), target.url,
                 f"{target.prefix}{kind}:", str(folder)],
                cwd=REPO, capture_output=True, text=True,
            )  # fmt: skip
            if done.returncode != 0:
                raise RuntimeError(f"the {kind} import failed:\n{done.stderr[-3000:]}")
            report[kind] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(report, indent=1))
    for kind in made:
        one = report[kind]
        print(
            f"{kind}: {one['bytes'] / 2**20:.1f} MiB, {one['imported']} plays in"
            f" {one['seconds']:.1f} s; peak RSS grew {one['growth_bytes'] / 2**20:.1f} MiB,"
            f" {one['multiple']:.1f}x the file (goal {GOAL_MULTIPLE:.0f}x)"
        )


if __name__ == "__main__":
    main()
