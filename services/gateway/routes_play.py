"""The play page: a person registers, opens or joins games and plays them in the browser, on the same drawings as
the dashboards. Served by the gateway because every request it makes that matters goes here (the token, the moves,
the game's WebSocket), from the same origin, so no cross-origin rules touch the gateway's hot path; the public lists
it shows (games, names) it reads from the standings service, whose /v1 is readable from any origin."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from aiohttp import web

from services.gateway.routes import Route, add_routes
from shared.config import Settings
from shared.service.keys import SETTINGS
from shared.web import WEB_LIB

PLAY = Path(__file__).parent / "play"
FILE = re.compile(r"^[a-z][a-z0-9_-]*\.(js|css|svg|html)$")
TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "html": "text/html"}
FILE_PARAMETER = {"name": "file", "in": "path", "required": True, "schema": {"type": "string"}}
OPERATIONS: dict[str, dict[str, Any]] = {
    "playPage": {
        "summary": "The play page (HTML): register, open or join a game, play it, check its dice",
        "responses": {"200": {"description": "text/html"}}},
    "playConfig": {
        "summary": "Where the play page finds the public standings (STANDINGS_URL)",
        "responses": {"200": {"description": "{\"standings_url\": \"...\"}"}}},
    "playFile": {
        "summary": "The play page's own files", "parameters": [FILE_PARAMETER],
        "responses": {"200": {"description": "JavaScript, CSS or SVG"}, "404": {"description": "no such file"}}},
    "sharedWebFile": {
        "summary": "The drawings and checks every page of the league shares", "parameters": [FILE_PARAMETER],
        "responses": {"200": {"description": "JavaScript or CSS"}, "404": {"description": "no such file"}}},
}
"""What ``/openapi.json`` says of each route below, by operationId."""


def served(folder: Path, name: str) -> web.FileResponse:
    """A file of ``folder`` by a plain name (no path, a known kind), else 404."""
    path = folder / name
    if not FILE.match(name) or not path.is_file():
        raise web.HTTPNotFound(text=f"no file {name!r}")
    return web.FileResponse(path, headers={"Content-Type": TYPES[name.rsplit(".", 1)[1]], "Cache-Control": "no-cache"})


async def page(request: web.Request) -> web.FileResponse:
    return served(PLAY, "index.html")


async def play_file(request: web.Request) -> web.FileResponse:
    return served(PLAY, request.match_info["file"])


async def lib_file(request: web.Request) -> web.FileResponse:
    return served(WEB_LIB, request.match_info["file"])


async def config(request: web.Request) -> web.Response:
    settings: Settings = request.app[SETTINGS]
    return web.json_response({"standings_url": getattr(settings, "standings_url", "").rstrip("/")},
                             headers={"Cache-Control": "no-cache"})


ROUTES = (Route("GET", "/play", page, "playPage"), Route("GET", "/play/config.json", config, "playConfig"),
          Route("GET", "/play/{file}", play_file, "playFile"), Route("GET", "/lib/{file}", lib_file, "sharedWebFile"))


def add_play_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
