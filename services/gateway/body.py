"""Reading a request body: JSON, strictly typed, with an error that names the field."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from aiohttp import web

T = TypeVar("T")
_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


async def body_of(request: web.Request, type_: type[T]) -> T:
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send the body as application/json")
    decoder = _decoders.get(type_)
    if decoder is None:
        decoder = _decoders[type_] = msgspec.json.Decoder(type_)
    return decoder.decode(await request.read())  # type: ignore[no-any-return]


def unknown_fields(raw: Any, struct: msgspec.Struct) -> list[str]:
    """Keys in a decoded JSON object that the Struct does not have (games' commands are not decoded strictly)."""
    if not isinstance(raw, dict):
        return []
    config = struct.__struct_config__
    known = {field.encode_name for field in msgspec.structs.fields(struct)}
    if isinstance(config.tag_field, str):
        known.add(config.tag_field)
    return sorted(set(raw) - known)
