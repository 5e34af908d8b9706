"""Encoders and decoders built once (msgspec perf tips)."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

encoder = msgspec.json.Encoder()
_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


def encode(obj: Any) -> bytes:
    return encoder.encode(obj)


def decode(data: bytes | str, type: type[T]) -> T:  # noqa: A002 - mirrors msgspec's own keyword
    decoder = _decoders.get(type)
    if decoder is None:
        decoder = _decoders[type] = msgspec.json.Decoder(type)
    return decoder.decode(data)  # type: ignore[no-any-return]
