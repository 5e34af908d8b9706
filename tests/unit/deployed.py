"""What the code says a deployed service needs, for the checks of docker-compose.yml, deploy/compose/ and deploy/k8s/:
the variables its settings read, the ones production requires, the port it listens on and the health route."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import msgspec

from shared.config import Settings, env_name, required_env
from shared.service.app import base_app

ROOT = Path(__file__).resolve().parents[2]
HEALTH_PATH = "/healthz"
CONTAINER_PORT = 8080
"""The port deploy/Dockerfile exposes and sets as HTTP_PORT."""
SECRETS_DIR = "/run/secrets"
"""Where a deployed service finds its own ``<service>.nkey`` and ``<service>.database`` (``SECRETS_DIR``)."""
CREDENTIALS_VARIABLE = "SECRETS_DIR"
"""Read by ``shared/service/credentials.py`` before the settings are parsed, so no settings field."""


def settings_type(service: str) -> type[Settings]:
    module = importlib.import_module(f"services.{service}.settings")
    found = [cls for _, cls in inspect.getmembers(module, inspect.isclass)
             if issubclass(cls, Settings) and cls.__module__ == module.__name__]
    assert len(found) == 1, f"services/{service}/settings.py should define one Settings class, found {found}"
    return found[0]


def variables_read(service: str) -> set[str]:
    """Every environment variable the service reads: one per settings field, and SECRETS_DIR."""
    info = msgspec.inspect.type_info(settings_type(service))
    assert isinstance(info, msgspec.inspect.StructType)
    return {env_name(field.name) for field in info.fields} | {CREDENTIALS_VARIABLE}


def variables_required(service: str) -> set[str]:
    return set(required_env(settings_type(service), production=True))


def serves_health_route() -> bool:
    """Every service's app is built on ``base_app``: it routes GET /healthz."""
    app = base_app("check", Settings())
    return any(resource.canonical == HEALTH_PATH for resource in app.router.resources())


def pinned(package: str) -> str:
    """The version pyproject.toml pins ``package`` at."""
    found = re.search(rf'"{re.escape(package)}==([^"]+)"', (ROOT / "pyproject.toml").read_text())
    assert found, f"{package} is not pinned in pyproject.toml"
    return found.group(1)


def image_tag(image: str) -> str:
    return image.rsplit(":", 1)[1]


def same_release(image: str, version: str, parts: int) -> bool:
    """``nats:2.15.1-alpine`` against ``2.15.1``: the first ``parts`` numbers of the tag and the version agree."""
    tag = re.split(r"[^0-9.]", image_tag(image))[0].split(".")
    return tag[:parts] == version.split(".")[:parts]
