"""Reading a request body: JSON, strictly typed, with an error that names the field."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any, TypeVar

import msgspec
from aiohttp import web

from shared.http.errors import json_error
from shared.messages.nul import json_nul_at, nul_error

T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


async def body_of(request: web.Request, type_: type[T]) -> T:
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send the body as application/json")
    decoder = _decoders.get(type_)
    if decoder is None:
        decoder = _decoders[type_] = msgspec.json.Decoder(type_)
    return decode(decoder, await request.read())  # type: ignore[no-any-return]


def decode(decoder: msgspec.json.Decoder[Any], data: bytes) -> Any:
    """Strictly, but with a whole number written as ``9.0`` taken as the integer it is (JSON Schema's view, which
    the OpenAPI document follows); looked at only when the strict decode failed."""
    try:
        return decoder.decode(data)
    except msgspec.ValidationError:
        lifted = integral_floats_as_ints(data)
        if lifted is None:
            raise
        return msgspec.convert(lifted, decoder.type)


def integral_floats_as_ints(data: bytes) -> Any:
    """The JSON document with each whole-number float made an int; None when it holds none (nothing to retry)."""
    root = [msgspec.json.decode(data)]
    changed = False
    pending: list[Any] = [root]
    while pending:
        container = pending.pop()
        keys = container.keys() if isinstance(container, dict) else range(len(container))
        for key in keys:
            value = container[key]
            if isinstance(value, float) and value.is_integer():
                container[key], changed = int(value), True
            elif isinstance(value, dict | list):
                pending.append(value)
    return root[0] if changed else None


def unknown_fields(raw: Any, struct: msgspec.Struct) -> list[str]:
    """Keys in a decoded JSON object that the Struct does not have (games' commands are not decoded strictly)."""
    if not isinstance(raw, dict):
        return []
    return sorted(set(raw) - _known_fields(type(struct)))


@cache
def _known_fields(struct_type: type[msgspec.Struct]) -> frozenset[str]:
    config = struct_type.__struct_config__
    known = {field.encode_name for field in msgspec.structs.fields(struct_type)}
    if isinstance(config.tag_field, str):
        known.add(config.tag_field)
    return frozenset(known)


@web.middleware
async def storable_text(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every JSON body, whatever the route: a NUL in any string or key is refused here (400, naming the field),
    before it can reach a service; PostgreSQL's text and jsonb cannot hold it. The body stays readable."""
    if request.body_exists and request.content_type == "application/json":
        path = json_nul_at(await request.read())
        if path is not None:
            return json_error(400, "request.invalid", nul_error(path))
    return await handler(request)
