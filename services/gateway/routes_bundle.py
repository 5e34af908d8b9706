"""``GET /audit/{game_id}/bundle``: an ended game's audit bundle (JSON lines: its events and its RNG stream's, as
``league export`` writes them), so that a player's browser recomputes every draw itself. Only once the game has
ended, as the audit: until then draws and hidden cards stay hidden."""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp import web

from shared.audit.bundle import export_bundle
from shared.audit.fetch import fetch_game
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.play.table import Table
from shared.service.keys import STORE

PATHS = {
    "/audit/{game_id}/bundle": {"get": {
        "summary": "An ended game's audit bundle (JSON lines), to recompute its draws anywhere",
        "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "application/x-ndjson: a header, then every event"},
                      "400": {"description": "not a game id"}, "404": {"description": "no such game"},
                      "409": {"description": "the game is still running"}}}},
}


async def bundle(request: web.Request) -> web.Response:
    game_id = request.match_info["game_id"]
    try:
        check_stream_id(game_id)
    except InvalidStreamId as error:
        return json_error(400, "audit.game-id", str(error))
    game_events, rng_events = await fetch_game(request.app[STORE], game_id)
    if not game_events:
        return json_error(404, "audit.unknown-game", f"no game {game_id}")
    table = Table(game_id).apply_all(game_events)
    if table.ended is None or table.opened is None:
        return json_error(409, "audit.game-running", f"{game_id} is still running; its bundle comes once it has ended")
    body = export_bundle(game_id, table.opened.game, game_events, rng_events, datetime.now(UTC))
    response = web.Response(body=body, content_type="application/x-ndjson", headers={"Cache-Control": "no-cache"})
    response.enable_compression()
    return response


def add_bundle_routes(app: web.Application) -> None:
    app.router.add_get("/audit/{game_id}/bundle", bundle)
