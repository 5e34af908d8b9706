"""``league secrets FOLDER``: every credential a deployed league needs, made once (a file already there is kept):
each user's NATS nkey, each service's PostgreSQL login, the superuser's and the streaming replica's passwords, the
league's keys (``keys.env``: the seed-sealing, engine-signing and notary keys, as the variables that carry them), and
``nats-auth.conf``, the nats-server authorization block (public keys and permissions only: not a secret) that
``deploy/nats.conf`` includes. ``league migrate`` then creates the logins with these passwords."""

from __future__ import annotations

import secrets
from functools import partial
from pathlib import Path

import msgspec

from shared.eventstore.roles import LOGINS, DatabaseLogin, group_role, login_file, login_name
from shared.infra.nats_auth import auth_config
from shared.infra.secrets import kept_secret, write_secret
from shared.keyfiles import new_key_text

KEYS = ("RNG_SEED_KEY", "RNG_ENGINE_KEY", "NOTARY_KEY")
"""The league's keys (``services/rng/settings.py``, ``services/engine/settings.py``), base64 of 32 bytes each."""


def secrets_command(folder: Path, database: str, prefix: str) -> int:
    for login in LOGINS:
        kept_secret(login_file(folder, login), partial(_new_login, login, database))
    password = kept_secret(folder / "postgres.password", lambda: secrets.token_urlsafe(24))
    write_secret(folder / "pgpass", f"*:*:*:league:{password}\n")  # the owner's, for the migrate job only
    kept_secret(folder / "replication.password", lambda: secrets.token_urlsafe(24))
    kept_secret(folder / "keys.env", lambda: "".join(f"{key}={new_key_text()}\n" for key in KEYS))
    config = folder / "nats-auth.conf"
    write_secret(config, auth_config(folder, [prefix]))
    config.chmod(0o644)
    print(f"league: credentials in {folder}/ (keep them secret), nats-server authorization in {config}")
    return 0


def _new_login(login: str, database: str) -> str:
    return msgspec.json.encode(DatabaseLogin(
        user=login_name(login, database), password=secrets.token_urlsafe(24), role=group_role(login))).decode()
