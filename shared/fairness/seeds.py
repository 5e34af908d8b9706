"""The server seed, its public commitment, and the checks on every input of the recipe."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

SERVER_SEED_BYTES = 32
CLIENT_SEED_MAX_BYTES = 64


def new_server_seed() -> bytes:
    return secrets.token_bytes(SERVER_SEED_BYTES)


def check_server_seed(server_seed: bytes) -> bytes:
    if not isinstance(server_seed, bytes | bytearray | memoryview):
        raise ValueError(f"server seed must be bytes, not {type(server_seed).__name__}")
    seed = bytes(server_seed)
    if len(seed) != SERVER_SEED_BYTES:
        raise ValueError(f"server seed must be {SERVER_SEED_BYTES} bytes, got {len(seed)}")
    return seed


def commitment(server_seed: bytes) -> str:
    """Lowercase hex of SHA-256 over the 32 raw seed bytes."""
    return hashlib.sha256(check_server_seed(server_seed)).hexdigest()


def verify_commitment(server_seed: bytes, committed: str) -> bool:
    try:
        actual = commitment(server_seed)
    except ValueError:
        return False
    if not isinstance(committed, str) or not committed.isascii():
        return False
    return hmac.compare_digest(actual, committed.lower())


def encode_text(what: str, text: str) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a str, not {type(text).__name__}")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{what} is not encodable as UTF-8: {e.reason}") from e


def encode_client_seeds(client_seeds: Sequence[str]) -> list[bytes]:
    if isinstance(client_seeds, str | bytes) or not isinstance(client_seeds, Sequence):
        raise ValueError("client seeds must be a sequence of str, one per seat")
    encoded = [encode_text(f"client seed {i}", seed) for i, seed in enumerate(client_seeds)]
    for i, seed in enumerate(encoded):
        if len(seed) > CLIENT_SEED_MAX_BYTES:
            raise ValueError(f"client seed {i} is {len(seed)} bytes in UTF-8, at most {CLIENT_SEED_MAX_BYTES}")
    return encoded
