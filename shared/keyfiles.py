"""Symmetric keys from the environment (base64 of 32 bytes), or a development key file made on first use."""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from pathlib import Path

from shared.config import SettingsError


def parse_key(text: str, variable: str) -> bytes:
    try:
        key = base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error) as error:
        raise SettingsError(f"{variable} must be base64 of 32 random bytes") from error
    if len(key) != 32:
        raise SettingsError(f"{variable} must be base64 of 32 random bytes, got {len(key)} bytes")
    return key


def new_key_text() -> str:
    return base64.b64encode(secrets.token_bytes(32)).decode()


def key_from(value: str, variable: str, environment: str, data_dir: str) -> bytes:
    """The key in ``value``; outside production, when empty, a key file ``<data_dir>/<variable>.key``."""
    if value:
        return parse_key(value, variable)
    if environment == "production":
        raise SettingsError(f"{variable} must be set in production")
    path = Path(data_dir) / f"{variable.lower()}.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under a name of its own, then linked into place: two services starting together (the engine
        # and the RNG share a key) each see no file or the whole key, never a file made and not yet written.
        written = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(new_key_text())
        try:
            os.link(written, path)
        except FileExistsError:
            pass  # another service made it first
        finally:
            written.unlink()
    return parse_key(path.read_text().strip(), str(path))
