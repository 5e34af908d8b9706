"""An ended game's streams, for the routes that show a game in full once it is over (the audit, the bundle): a bad
id is a 400; an unknown game a 404; a running one, or one whose events cannot be read before its seed is public, a
409 (``shared.audit.readiness`` says when a game may be shown)."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from shared.audit.fetch import fetch_game
from shared.audit.readiness import NotAuditable, auditable
from shared.eventstore import RecordedEvent
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.service.keys import STORE


@dataclass(frozen=True)
class EndedGame:
    game_id: str
    game: str
    game_events: list[RecordedEvent]
    rng_events: list[RecordedEvent]


async def ended_game(request: web.Request, what: str) -> EndedGame | web.Response:
    """The path's game once it has ended, else the error answer (``what`` names what waits for the end)."""
    game_id = request.match_info["game_id"]
    try:
        check_stream_id(game_id)
    except InvalidStreamId as error:
        return json_error(400, "audit.game-id", str(error))
    game_events, rng_events = await fetch_game(request.app[STORE], game_id)
    try:
        game = auditable(game_id, game_events, rng_events)
    except NotAuditable as refused:
        message = f"{refused.message} ({what} comes once it has ended)" if refused.status == 409 else refused.message
        return json_error(refused.status, refused.code, message)
    return EndedGame(game_id, game, game_events, rng_events)
