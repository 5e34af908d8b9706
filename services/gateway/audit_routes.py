"""``GET /audit/{game_id}``: the referee's report for an ended game, from the stored events alone."""

from __future__ import annotations

import msgspec
from aiohttp import web

from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.play.table import Table
from shared.service.keys import STORE

_encoder = msgspec.json.Encoder()


async def audit(request: web.Request) -> web.Response:
    game_id = request.match_info["game_id"]
    try:
        check_stream_id(game_id)
    except InvalidStreamId as error:
        return json_error(400, "audit.game-id", str(error))
    game_events, rng_events = await fetch_game(request.app[STORE], game_id)
    if not game_events:
        return json_error(404, "audit.unknown-game", f"no game {game_id}")
    if Table(game_id).apply_all(game_events).ended is None:
        return json_error(409, "audit.game-running", f"{game_id} is still running; it is audited once it has ended")
    report = audit_game(game_id, game_events, rng_events)
    body = {"game_id": game_id, "verified": report.verified, "summary": str(report),
            "counts": {"game_events": report.game_events, "rng_events": report.rng_events,
                       "actions": report.actions, "draws": report.draws},
            "discrepancy": msgspec.to_builtins(report.discrepancy)}
    return web.json_response(body, dumps=lambda obj: _encoder.encode(obj).decode())


def add_audit_routes(app: web.Application) -> None:
    app.router.add_get("/audit/{game_id}", audit)
