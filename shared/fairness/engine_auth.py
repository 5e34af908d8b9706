"""Requests to the RNG service signed with a key only the engine and the RNG service hold."""

from __future__ import annotations

import hashlib
import hmac

import msgspec

MAX_AGE_SECONDS = 30.0
_encoder = msgspec.json.Encoder(order="sorted")


def sign(key: bytes, *fields: object) -> str:
    return hmac.new(key, _encoder.encode(list(fields)), hashlib.sha256).hexdigest()


def check(key: bytes, signature: str, *fields: object) -> bool:
    return hmac.compare_digest(sign(key, *fields), signature)
