"""There is no Docker engine here: check the compose file against the code it runs instead."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

import yaml

from shared.config import Settings, required_env
from shared.infra.processes import SERVICES

ROOT = Path(__file__).resolve().parents[2]
INFRASTRUCTURE = {"postgres", "nats"}
JOBS = {"migrate"}


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def settings_type(service: str) -> type[Settings]:
    module = importlib.import_module(f"services.{service}.settings")
    found = [cls for _, cls in inspect.getmembers(module, inspect.isclass)
             if issubclass(cls, Settings) and cls.__module__ == module.__name__]
    assert len(found) == 1, f"services/{service}/settings.py should define one Settings class, found {found}"
    return found[0]


def test_every_compose_service_exists_and_gets_what_its_settings_require() -> None:
    services = compose()["services"]
    app_services = set(services) - INFRASTRUCTURE - JOBS
    assert app_services == set(SERVICES), "compose and league up must run the same services"
    for name in app_services:
        assert (ROOT / "services" / name / "__main__.py").exists(), f"services/{name} is missing"
        spec = services[name]
        assert spec["command"] == ["python", "-m", f"services.{name}"]
        environment = spec["environment"]
        for variable in required_env(settings_type(name), production=True):
            assert environment.get(variable), f"{name} needs {variable} in docker-compose.yml"
        assert environment["HTTP_HOST"] == "0.0.0.0"
        assert "healthcheck" in spec and "healthz" in " ".join(spec["healthcheck"]["test"])
        assert spec["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert spec["depends_on"]["nats"]["condition"] == "service_healthy"


def test_infrastructure_is_persistent_and_health_checked() -> None:
    spec = compose()
    nats = spec["services"]["nats"]
    assert any(volume.endswith(":/data") for volume in nats["volumes"])
    assert "jetstream" in (ROOT / "deploy" / "nats.conf").read_text()
    assert "store_dir: /data" in (ROOT / "deploy" / "nats.conf").read_text()
    assert any("/var/lib/postgresql/data" in v for v in spec["services"]["postgres"]["volumes"])
    assert {"pgdata", "natsdata"} <= set(spec["volumes"])
    for name in INFRASTRUCTURE:
        assert "healthcheck" in spec["services"][name]


def test_one_dockerfile_serves_every_service() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "COPY services ./services" in dockerfile and "COPY shared ./shared" in dockerfile
    assert "requirements.lock" in dockerfile
    builds = {s["build"]["dockerfile"] for n, s in compose()["services"].items() if n not in INFRASTRUCTURE}
    assert builds == {"deploy/Dockerfile"}


def test_each_service_gets_only_its_own_credentials_and_nats_is_closed() -> None:
    spec = compose()
    for name in SERVICES:
        service = spec["services"][name]
        assert {s["target"] for s in service["secrets"]} == {f"{name}.nkey", f"{name}.database"}
        assert service["environment"]["SECRETS_DIR"] == "/run/secrets"
        assert "@" not in service["environment"]["DATABASE_URL"], "no owner credentials in a service's environment"
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    migrate = spec["services"]["migrate"]
    assert migrate["command"][:2] == ["league", "migrate"]
    assert not any(s["target"].endswith(".nkey") for s in migrate["secrets"])
    assert any(v.endswith(":/etc/nats/auth.conf:ro") for v in spec["services"]["nats"]["volumes"])
    assert "include ./auth.conf" in (ROOT / "deploy" / "nats.conf").read_text()
