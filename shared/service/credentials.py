"""A service's own credentials from ``SECRETS_DIR``, as the variables they stand for.

``<service>.nkey`` (its NATS nkey seed) becomes ``NATS_NKEY_FILE``; ``<service>.database`` (its PostgreSQL login)
becomes the user and password of ``DATABASE_URL`` (and of ``DATABASE_READ_URL``, a replica of it) and the
``DATABASE_ROLE`` it switches to. A file that is not there changes nothing: a league whose NATS or PostgreSQL asks no
credentials (a server the project did not start) is reached as ``NATS_URL`` / ``DATABASE_URL`` say."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shared.eventstore.roles import login_file, read_login, url_with_login
from shared.infra.nats_auth import nkey_file


def service_environ(service: str, environ: Mapping[str, str]) -> dict[str, str]:
    env = dict(environ)
    folder = environ.get("SECRETS_DIR")
    if not folder:
        return env
    nkey = nkey_file(Path(folder), service)
    if nkey.exists() and not env.get("NATS_NKEY_FILE"):
        env["NATS_NKEY_FILE"] = str(nkey)
    login = login_file(Path(folder), service)
    if login.exists() and env.get("DATABASE_URL"):
        found = read_login(login)
        env["DATABASE_URL"] = url_with_login(env["DATABASE_URL"], found)
        if env.get("DATABASE_READ_URL"):  # the replica has the primary's roles and passwords: they are data
            env["DATABASE_READ_URL"] = url_with_login(env["DATABASE_READ_URL"], found)
        env["DATABASE_ROLE"] = found.role
    return env
