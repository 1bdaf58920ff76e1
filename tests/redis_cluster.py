"""A Redis Cluster made of redis-server processes on loopback ports, for the tests.

``LocalCluster(folder, masters=3, replicas_per_master=0).start()`` starts one redis-server per
node (cluster mode, nothing persisted), joins them with ``redis-cli --cluster create`` and waits
until every node says ``cluster_state:ok``; ``stop()`` ends every process it started. The
processes also die with the test process (the kernel's parent-death signal), so a killed test run
leaves no server behind.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from service.store.embedded import die_with_parent

# A cluster node talks to the others on its port + 10000 (the cluster bus).
_BUS_OFFSET = 10000


def server_binaries() -> tuple[str, str]:
    """redis-server and redis-cli; CI installs them (.ci/run), so their absence is an error."""
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server is None or cli is None:
        raise RuntimeError(
            "the cluster tests need redis-server and redis-cli on PATH:"
            " apt-get install -y redis-server"
        )
    return server, cli


@dataclass
class LocalCluster:
    folder: Path
    masters: int = 3
    replicas_per_master: int = 0
    # How long a node may be unreachable before it is failed over (cluster-node-timeout).
    node_timeout_ms: int = 1000
    ports: list[int] = field(default_factory=list)
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The URL of one live node: the service finds the others itself."""
        return f"redis://127.0.0.1:{next(iter(self.processes))}"

    def start(self, timeout: float = 30.0) -> LocalCluster:
        _server, cli = server_binaries()
        self.start_nodes(timeout)
        try:
            subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in self.ports),
                 "--cluster-replicas", str(self.replicas_per_master), "--cluster-yes"],
                check=True, capture_output=True, timeout=timeout,
            )  # fmt: skip
            _wait_until(self._settled, timeout, "cluster_state:ok on every node")
        except BaseException:
            self.stop()
            raise
        return self

    def start_nodes(self, timeout: float = 30.0) -> LocalCluster:
        """Start the nodes, each a cluster of its own until they are joined."""
        server, _cli = server_binaries()
        self.ports = _free_ports(self.masters * (1 + self.replicas_per_master))
        try:
            for port in self.ports:
                self._start_node(server, port)
            for port in self.ports:
                _wait_until(lambda port=port: self._answers(port), timeout, f"node :{port}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for port in list(self.processes):
            self.kill(port, signal.SIGTERM)

    def kill(self, port: int, how: signal.Signals = signal.SIGKILL) -> None:
        """End one node: SIGKILL is a crash, SIGTERM a clean stop."""
        process = self.processes.pop(port)
        if process.poll() is None:
            process.send_signal(how)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, decode_responses=True, socket_timeout=5)

    def masters_now(self) -> list[int]:
        """The ports of the nodes that are masters now, as the live nodes see it."""
        found = set()
        for port in self.processes:
            with self.node(port) as node:
                for line in node.execute_command("CLUSTER", "NODES").splitlines():
                    address, flags = line.split()[1:3]
                    if "master" in flags.split(",") and "fail" not in flags:
                        found.add(int(address.split("@")[0].rsplit(":", 1)[1]))
        return sorted(found)

    def wait_until_settled(self, timeout: float = 30.0) -> None:
        _wait_until(self._settled, timeout, "cluster_state:ok on every live node")

    def _start_node(self, server: str, port: int) -> None:
        folder = self.folder / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        command = [
            server,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--cluster-enabled", "yes",
            "--cluster-config-file", str(folder / "nodes.conf"),
            "--cluster-node-timeout", str(self.node_timeout_ms),
            "--appendonly", "no",
            "--save", "",
            # A replica's first sync starts at once (not after the default 5 s): until it is done,
            # the replica refuses to take over from its master.
            "--repl-diskless-sync-delay", "0",
            "--dir", str(folder),
            "--daemonize", "no",
            "--logfile", str(folder / "redis.log"),
        ]  # fmt: skip
        self.processes[port] = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )

    def _answers(self, port: int) -> bool:
        if self.processes[port].poll() is not None:
            raise RuntimeError(f"redis-server :{port} exited; see {self.folder / str(port)}")
        try:
            with self.node(port) as node:
                return bool(node.ping())
        except redis.ConnectionError:
            return False

    def _settled(self) -> bool:
        """Every live node says the cluster is ok and knows every node started; every replica
        has its master's data (a replica whose link never came up cannot take over)."""
        for port in self.processes:
            with self.node(port) as node:
                info = node.cluster("info")
                replication = node.info("replication")
            if info["cluster_state"] != "ok" or int(info["cluster_known_nodes"]) < len(self.ports):
                return False
            if replication["role"] == "slave" and replication["master_link_status"] != "up":
                return False
        return True


def _wait_until(done: object, timeout: float, what: str) -> None:
    assert callable(done)
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _free_ports(count: int) -> list[int]:
    """Ports free on loopback, each with its cluster bus port (port + 10000) free too."""
    found: list[int] = []
    while len(found) < count:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + _BUS_OFFSET < 65536 and port not in found and _is_free(port + _BUS_OFFSET):
            found.append(port)
    return found


def _is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
