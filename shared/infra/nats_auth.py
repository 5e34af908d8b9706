"""NATS credentials: an nkey per user (``<user>.nkey`` holds its seed) and the server's ``authorization`` block
made from their public keys (``shared/bus/auth.py``)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from pathlib import Path

import nkeys

from shared.bus.auth import ADMIN, authorization, server_config
from shared.bus.namespace import READERS, SERVICES
from shared.infra.secrets import kept_secret

USERS = (*SERVICES, *READERS, ADMIN)


def new_user_seed() -> str:
    return bytes(nkeys.encode_seed(secrets.token_bytes(32), nkeys.PREFIX_BYTE_USER)).decode()


def public_key(seed: str) -> str:
    return bytes(nkeys.from_seed(bytearray(seed.encode())).public_key).decode()


def nkey_file(secrets_dir: Path, user: str) -> Path:
    return secrets_dir / f"{user}.nkey"


def user_keys(secrets_dir: Path, users: Iterable[str] = USERS) -> dict[str, str]:
    """Each user's public key; its seed is made into ``<secrets_dir>/<user>.nkey`` the first time."""
    return {user: public_key(kept_secret(nkey_file(secrets_dir, user), new_user_seed)) for user in users}


def auth_config(secrets_dir: Path, prefixes: Iterable[str]) -> str:
    """The ``authorization`` block for a server whose clients use ``prefixes``, with every user's key made."""
    return server_config(authorization(user_keys(secrets_dir), prefixes))
