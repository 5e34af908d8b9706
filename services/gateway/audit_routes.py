"""``GET /audit/{game_id}[?commitment=<hex>]``: the referee's report for an ended game, from the stored events
alone (and the seed commitment a player noted when it opened, if given)."""

from __future__ import annotations

import asyncio
import re

import msgspec
from aiohttp import web

from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.audit.readiness import NotAuditable, auditable
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.service.keys import STORE

_encoder = msgspec.json.Encoder()
COMMITMENT = re.compile(r"[0-9a-fA-F]{64}")


async def audit(request: web.Request) -> web.Response:
    game_id = request.match_info["game_id"]
    try:
        check_stream_id(game_id)
    except InvalidStreamId as error:
        return json_error(400, "audit.game-id", str(error))
    commitment = request.query.get("commitment")
    if commitment is not None and not COMMITMENT.fullmatch(commitment):
        return json_error(400, "audit.commitment", "commitment must be the 64 hex digits of a sha256")
    game_events, rng_events = await fetch_game(request.app[STORE], game_id)
    try:
        auditable(game_id, game_events, rng_events)
    except NotAuditable as refused:
        return json_error(refused.status, refused.code, refused.message)
    # A long season's audit is CPU work: off the event loop, so that the gateway keeps answering meanwhile.
    report = await asyncio.to_thread(audit_game, game_id, game_events, rng_events, commitment)
    body = {"game_id": game_id, "verified": report.verified, "summary": str(report),
            "counts": {"game_events": report.game_events, "rng_events": report.rng_events,
                       "actions": report.actions, "draws": report.draws},
            "discrepancy": msgspec.to_builtins(report.discrepancy)}
    return web.json_response(body, dumps=lambda obj: _encoder.encode(obj).decode())


def add_audit_routes(app: web.Application) -> None:
    app.router.add_get("/audit/{game_id}", audit)
