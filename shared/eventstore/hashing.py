"""The per-stream hash chain, recomputable from stored rows (or an exported bundle) without the database.

hash = sha256(prev_hash || version as 4-byte big-endian || body); the first event's prev_hash is 32 zero bytes.
body = JSON of [stream_id, event_id, type, schema_version, data, metadata] with object keys sorted and every
integral float written as an integer, so that the bytes survive PostgreSQL's jsonb normalisation.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import msgspec

GENESIS = bytes(32)


def _number(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() else value


_decoder = msgspec.json.Decoder(float_hook=_number)
_encoder = msgspec.json.Encoder(order="sorted")


def canonical_json(data: bytes | str) -> Any:
    return _decoder.decode(data)


def body(
    stream_id: str, event_id: uuid.UUID, type: str, schema_version: int, data: bytes, metadata: bytes  # noqa: A002
) -> bytes:
    return _encoder.encode(
        [stream_id, str(event_id), type, schema_version, canonical_json(data), canonical_json(metadata)]
    )


def new_body(
    stream_id: str, event_id: uuid.UUID, type: str, schema_version: int, data: bytes, metadata: object  # noqa: A002
) -> bytes:
    """``body`` of an event about to be appended, the same bytes at half the cost: the id is encoded by msgspec (its
    canonical form is ``str(uuid)``'s) and the metadata as the Struct itself (sorted fields, defaults left out, as
    its stored JSON decodes and re-encodes; it holds no float)."""
    return _encoder.encode([stream_id, event_id, type, schema_version, canonical_json(data), metadata])


def chain(prev_hash: bytes, version: int, event_body: bytes) -> bytes:
    return hashlib.sha256(prev_hash + version.to_bytes(4, "big") + event_body).digest()
