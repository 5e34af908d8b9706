"""JSON responses with ETags (If-None-Match -> 304), paging parameters, and 4xx errors for bad input."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import msgspec
from aiohttp import web

from shared.http.errors import json_error

MAX_LIMIT = 500
DEFAULT_LIMIT = 100
_encoder = msgspec.json.Encoder()


class BadRequest(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def not_found(what: str, key: str) -> BadRequest:
    return BadRequest(f"standings.unknown-{what}", f"no {what} {key!r}", 404)


def respond(request: web.Request, payload: Any) -> web.Response:
    body = _encoder.encode(payload)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return web.Response(status=304, headers=headers)
    return web.Response(body=body, content_type="application/json", headers=headers)


def limit_of(request: web.Request) -> int:
    text = request.query.get("limit", str(DEFAULT_LIMIT))
    if not text.isdigit() or not 1 <= int(text) <= MAX_LIMIT:
        raise BadRequest("standings.bad-limit", f"limit must be an integer from 1 to {MAX_LIMIT}, not {text!r}")
    return int(text)


def flag_of(request: web.Request, name: str) -> bool | None:
    text = request.query.get(name)
    if text is None:
        return None
    if text not in ("true", "false"):
        raise BadRequest(f"standings.bad-{name}", f"{name} must be true or false, not {text!r}")
    return text == "true"


def page(items: list[Any], limit: int, cursor: Callable[[Any], str]) -> dict[str, Any]:
    """``items`` fetched with limit + 1: the extra one only says whether there is a next page."""
    more = len(items) > limit
    items = items[:limit]
    return {"items": items, "next": cursor(items[-1]) if more and items else None}


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    for attempt in range(2):
        try:
            return await handler(request)
        except BadRequest as error:
            return json_error(error.status, error.code, error.message)
        except asyncpg.UndefinedTableError:
            # A rebuild swapped generations and dropped the old tables between two reads: read again.
            if attempt:
                raise
    raise AssertionError("unreachable")
