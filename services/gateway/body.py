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
    return decoder.decode(await request.read())  # type: ignore[no-any-return]


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
    if request.can_read_body and request.content_type == "application/json":
        path = json_nul_at(await request.read())
        if path is not None:
            return json_error(400, "request.invalid", nul_error(path))
    return await handler(request)
