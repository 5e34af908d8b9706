"""Seeds at rest: AES-256-GCM with a key from the environment, the game id bound as associated data."""

from __future__ import annotations

import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

NONCE_BYTES = 12


class Sealer:
    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, game_id: str, seed: bytes) -> bytes:
        nonce = secrets.token_bytes(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, seed, game_id.encode())

    def open(self, game_id: str, sealed: bytes) -> bytes:
        try:
            return self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], game_id.encode())
        except InvalidTag as error:
            raise ValueError(f"the sealed seed of {game_id} does not open with this key") from error
