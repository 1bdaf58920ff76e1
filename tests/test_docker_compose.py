"""docker-compose.yml's "cluster" profile, without Docker (no engine runs where the tests run):
its init script run for real against three cluster-mode redis-servers, and its wiring read."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import yaml

from tests.redis_cluster import LocalCluster

REPO = Path(__file__).resolve().parent.parent
INIT_SCRIPT = REPO / "docker" / "cluster-init.sh"


def compose() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    return services


def run_init(nodes: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(INIT_SCRIPT), *nodes], capture_output=True, text=True, timeout=90
    )


def test_the_init_script_makes_the_cluster_once_and_waits_until_it_serves(tmp_path: Path) -> None:
    cluster = LocalCluster(tmp_path).start_nodes()
    try:
        # Host names, as in the compose file (there: cluster-node-1:7000 ...).
        nodes = [f"localhost:{port}" for port in cluster.ports]
        made = run_init(nodes)
        assert made.returncode == 0, made.stderr
        assert made.stdout.rstrip().endswith(f"cluster ready: {' '.join(nodes)}")
        for port in cluster.ports:
            with cluster.node(port) as node:
                info = node.execute_command("CLUSTER", "INFO")
                assert "cluster_state:ok" in info and "cluster_known_nodes:3" in info
        # A compose restart runs it again: the cluster is found made, and left as it is.
        again = run_init(nodes)
        assert again.returncode == 0, again.stderr
        assert "Performing hash slots allocation" not in again.stdout
        assert "Performing hash slots allocation" in made.stdout
    finally:
        cluster.stop()


def test_the_cluster_profile_starts_the_api_and_worker_once_the_cluster_is_ready() -> None:
    services = compose()
    init = services["cluster-init"]
    nodes = [name for name in services if name.startswith("cluster-node-")]
    assert len(nodes) == 3
    for name in nodes:
        command = services[name]["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--port") + 1] == "7000"
    assert init["command"][2:] == [f"{name}:7000" for name in nodes]
    assert "./docker/cluster-init.sh:/cluster-init.sh:ro" in init["volumes"]
    for name in ("cluster-api", "cluster-worker"):
        service = services[name]
        assert service["profiles"] == ["cluster"]
        assert service["depends_on"]["cluster-init"] == {
            "condition": "service_completed_successfully"
        }
        environment = service["environment"]
        # Any one node: the service finds the others. RQ's queue on a plain Redis of its own.
        assert environment["REDIS_URL"] == "redis://cluster-node-1:7000/0"
        assert environment["QUEUE_REDIS_URL"] == "redis://queue:6379/0"
        assert "--cluster-enabled" not in services["queue"]["command"]
    assert services["cluster-worker"]["command"] == ["tabletape", "worker"]
    # Where the worker runs apart, the API does not run one of its own.
    for api in ("api", "cluster-api"):
        assert services[api]["command"][:2] == ["tabletape", "serve"]
        assert "--no-worker" in services[api]["command"]


def test_the_image_copies_every_package_the_project_installs() -> None:
    """The Dockerfile copies the packages one by one: one left out is an image whose `tabletape`
    cannot start (the command line is a package of its own, ``cli/``)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    installed = {
        pattern.rstrip("*")
        for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    copied = set(re.findall(r"^COPY (\w+) \./\1$", dockerfile, re.MULTILINE))
    assert "cli" in installed
    assert installed <= copied
