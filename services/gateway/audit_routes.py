"""``GET /audit/{game_id}[?commitment=<hex>]``: the referee's report for an ended game, from the stored events
alone (and the seed commitment a player noted when it opened, if given)."""

from __future__ import annotations

import asyncio
import re

import msgspec
from aiohttp import web

from services.gateway.ended_games import ended_game
from services.gateway.routes import Route, add_routes
from shared.audit import audit_game
from shared.http.errors import json_error

_encoder = msgspec.json.Encoder()
COMMITMENT = re.compile(r"[0-9a-fA-F]{64}")


async def audit(request: web.Request) -> web.Response:
    commitment = request.query.get("commitment")
    if commitment is not None and not COMMITMENT.fullmatch(commitment):
        return json_error(400, "audit.commitment", "commitment must be the 64 hex digits of a sha256")
    found = await ended_game(request, "its audit")
    if isinstance(found, web.Response):
        return found
    game_id = found.game_id
    # A long season's audit is CPU work: off the event loop, so that the gateway keeps answering meanwhile.
    report = await asyncio.to_thread(audit_game, game_id, found.game_events, found.rng_events, commitment)
    body = {"game_id": game_id, "verified": report.verified, "summary": str(report),
            "counts": {"game_events": report.game_events, "rng_events": report.rng_events,
                       "actions": report.actions, "draws": report.draws},
            "discrepancy": msgspec.to_builtins(report.discrepancy)}
    return web.json_response(body, dumps=lambda obj: _encoder.encode(obj).decode())


ROUTES = (Route("GET", "/audit/{game_id}", audit, "getAudit"),)


def add_audit_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
