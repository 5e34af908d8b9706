"""Settings parsed from the environment once, at start-up, with an error that names the bad variable."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import msgspec

S = TypeVar("S", bound="Settings")


class SettingsError(Exception):
    pass


class Settings(msgspec.Struct, kw_only=True, frozen=True):
    """Base of every service's settings. A field ``foo_bar`` is read from ``FOO_BAR``; no default = required."""

    PRODUCTION_REQUIRED: ClassVar[tuple[str, ...]] = ()
    """Fields with a development fallback that production must set explicitly."""

    environment: Literal["dev", "test", "production"] = "dev"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    http_host: str = "127.0.0.1"
    http_port: int = 0
    http_header_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """A connection's request headers must be complete this long after it opened (or after its last answer)."""
    http_body_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """A request's body must have arrived this long after its headers (the gateway: 408 otherwise)."""
    http_connections_per_client: Annotated[int, msgspec.Meta(ge=1)] = 256
    """Connections one client address may hold at once; one more is answered 503 and closed."""


class BusSettings(Settings, kw_only=True, frozen=True):
    nats_url: str
    nats_subject_prefix: str = ""
    """Namespaces every subject and the JetStream stream, so several leagues (or test runs) share one NATS."""
    nats_nkey_file: str = ""
    """This service's NATS nkey seed (``SECRETS_DIR/<service>.nkey`` when that exists); empty: no credentials."""


class StoreSettings(BusSettings, kw_only=True, frozen=True):
    database_url: str
    database_role: str = "league_app"
    """The role sessions switch to: the service's own (``league_<service>``) with its login from ``SECRETS_DIR``;
    ``league_app`` (INSERT/SELECT on events) for a league whose owner could not create logins."""
    database_pool_size: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 10
    """Connections this process keeps to PostgreSQL at most."""
    database_read_url: str = ""
    """A streaming replica that may answer this service's reads where it can (the standings' read models, audits);
    empty: the primary answers everything. Reads never show older data than an earlier read did
    (``shared/eventstore/read_replica.py``)."""


def env_name(field: str) -> str:
    return field.upper()


def required_env(cls: type[Settings], *, production: bool = False) -> list[str]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    required = [env_name(f.name) for f in info.fields if f.required]
    return required + [env_name(name) for name in cls.PRODUCTION_REQUIRED] if production else required


def load_settings(cls: type[S], environ: Mapping[str, str] | None = None) -> S:
    environ = os.environ if environ is None else environ
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    raw: dict[str, Any] = {}
    missing = []
    for field in info.fields:
        name = env_name(field.name)
        if environ.get(name):
            raw[field.name] = environ[name]
        elif field.required or (field.name in cls.PRODUCTION_REQUIRED and environ.get("ENVIRONMENT") == "production"):
            missing.append(name)
    if missing:
        raise SettingsError(f"missing environment variable(s): {', '.join(missing)}")
    try:
        return msgspec.convert(raw, cls, strict=False)
    except msgspec.ValidationError as error:
        message = str(error)
        for field in info.fields:
            if message.endswith(f"`$.{field.name}`"):
                raise SettingsError(f"{env_name(field.name)}={raw[field.name]!r}: {message}") from error
        raise SettingsError(message) from error
