"""Three (or more) embedded nats-servers routed into one cluster, each on its own client, route and monitoring port,
all closed by the same authorization block as a single server. JetStream runs clustered: streams created with
``JETSTREAM_REPLICAS`` = the cluster's size keep every message on each server, so one may die."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

from shared.infra.embedded_nats import EmbeddedNats, Routes
from shared.infra.ports import free_port

CLUSTER_NAME = "league"
READY_SECONDS = 60.0


class EmbeddedNatsCluster:
    def __init__(self, data_dir: Path, authorization: str | None = None, *, size: int = 3) -> None:
        route_ports = tuple(free_port() for _ in range(size))
        self.servers = [
            EmbeddedNats(data_dir / f"nats-{n + 1}", authorization, name=f"nats-{n + 1}",
                         routes=Routes(CLUSTER_NAME, port, route_ports))
            for n, port in enumerate(route_ports)]

    @property
    def url(self) -> str:
        """Every member's client URL, comma-separated: what ``NATS_URL`` takes (``shared/bus/connect.py``)."""
        return ",".join(server.url for server in self.servers)

    def start(self) -> str:
        try:
            for server in self.servers:
                server.start()
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self.url

    def wait_ready(self, timeout: float = READY_SECONDS) -> None:
        """Until every running member sees all the others and JetStream has a leader (its /healthz is 200)."""
        deadline = time.monotonic() + timeout
        for server in self.servers:
            while not (_routed(server, len(self.servers) - 1) and _healthy(server)):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{server.name} did not join its cluster within {timeout:.0f}s; see "
                                       f"{server.data_dir / 'nats-server.log'}")
                time.sleep(0.1)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


def _monitor(server: EmbeddedNats, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.monitor_port}{path}", timeout=2) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""
    except OSError:
        return 0, b""


def _routed(server: EmbeddedNats, peers: int) -> bool:
    status, body = _monitor(server, "/routez")
    return status == 200 and len({route.get("remote_name") for route in json.loads(body)["routes"]}) >= peers


def _healthy(server: EmbeddedNats) -> bool:
    return _monitor(server, "/healthz")[0] == 200
