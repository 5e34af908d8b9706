"""Every error a client sees is JSON ``{code, message}`` with a 4xx status; never a 500 for what it sent."""

from __future__ import annotations

from aiohttp import web


def json_error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"code": code, "message": message}, status=status)
