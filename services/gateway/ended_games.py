"""An ended game's streams, for the routes that show a game in full once it is over (the audit, the bundle): a bad
id is a 400, an unknown game a 404, a running one a 409."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from shared.audit.fetch import fetch_game
from shared.eventstore import RecordedEvent
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.play.table import Table
from shared.service.keys import STORE


@dataclass(frozen=True)
class EndedGame:
    game_id: str
    table: Table
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
    if not game_events:
        return json_error(404, "audit.unknown-game", f"no game {game_id}")
    table = Table(game_id).apply_all(game_events)
    if table.ended is None or table.opened is None:
        return json_error(409, "audit.game-running", f"{game_id} is still running; {what} comes once it has ended")
    return EndedGame(game_id, table, game_events, rng_events)
