"""The web pages: the dashboard at ``/``, the replay viewer at ``/replay/<game-id>`` (``?step=N`` opens it at that
event), their files under ``/web/`` and the drawings every page of the league shares under ``/lib/``."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from shared.web import WEB_LIB

WEB = Path(__file__).parent / "web"


async def dashboard(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


async def replay(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB / "replay.html", headers={"Cache-Control": "no-cache"})


def add_pages(app: web.Application) -> None:
    app.router.add_get("/", dashboard)
    app.router.add_get("/replay/{game_id}", replay)
    app.router.add_get("/replay", replay)
    app.router.add_static("/web/", WEB)
    app.router.add_static("/lib/", WEB_LIB)
