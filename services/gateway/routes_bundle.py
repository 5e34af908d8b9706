"""``GET /audit/{game_id}/bundle``: an ended game's audit bundle (JSON lines: its events and its RNG stream's, as
``league export`` writes them), so that a player's browser recomputes every draw itself. Only once the game has
ended, as the audit: until then draws and hidden cards stay hidden."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from services.gateway.ended_games import ended_game
from services.gateway.path_parameters import GAME_ID
from services.gateway.routes import Route, add_routes
from shared.audit.bundle import export_bundle

OPERATIONS: dict[str, dict[str, Any]] = {
    "getBundle": {
        "summary": "An ended game's audit bundle (JSON lines), to recompute its draws anywhere",
        "parameters": [GAME_ID],
        "responses": {"200": {"description": "application/x-ndjson: a header, then every event"},
                      "400": {"description": "not a game id"}, "404": {"description": "no such game"},
                      "409": {"description": "the game is still running"},
                      "503": {"description": "the database is out of reach: send it again after `Retry-After`"}}},
}
"""What ``/openapi.json`` says of each route below, by operationId."""


async def bundle(request: web.Request) -> web.Response:
    found = await ended_game(request, "its bundle")
    if isinstance(found, web.Response):
        return found
    body = export_bundle(found.game_id, found.game, found.game_events, found.rng_events,
                         datetime.now(UTC))
    response = web.Response(body=body, content_type="application/x-ndjson", headers={"Cache-Control": "no-cache"})
    response.enable_compression()
    return response


ROUTES = (Route("GET", "/audit/{game_id}/bundle", bundle, "getBundle"),)


def add_bundle_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
