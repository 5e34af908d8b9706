"""The gateway's and standings' outermost error middleware: a fault of ours is a logged JSON 500, never a bare one."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from services.gateway.errors import json_errors
from services.standings.http import errors
from shared.http.errors import last_resort


async def broken(request: web.Request) -> web.Response:
    raise RuntimeError("a bug of ours")


@pytest.mark.parametrize("middleware", [json_errors, errors], ids=["gateway", "standings"])
async def test_an_unexpected_error_is_a_logged_json_500(middleware: object,
                                                        capfd: pytest.CaptureFixture[str]) -> None:
    app = web.Application(middlewares=[last_resort, middleware])  # type: ignore[list-item]
    app.router.add_get("/broken", broken)
    server = TestServer(app)
    await server.start_server()
    try:
        async with aiohttp.ClientSession() as session, session.get(server.make_url("/broken")) as response:
            assert response.status == 500
            assert await response.json() == {"code": "internal",
                                             "message": "the service failed on this request; it was logged"}
    finally:
        await server.close()
    logged = capfd.readouterr()
    assert "http.failed" in logged.out + logged.err and "a bug of ours" in logged.out + logged.err
