"""An ended game's streams, for the routes that show a game in full once it is over (the audit, the bundle): a bad
id is a 400; an unknown game a 404; a running one, or one whose events cannot be read before its seed is public, a
409 (``shared.audit.readiness`` says when a game may be shown). Read from the replica where it can
(``DATABASE_READ_URL``), else from the primary."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from shared.audit.fetch import fetch_game
from shared.audit.readiness import NotAuditable, auditable
from shared.eventstore import RecordedEvent
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.http.errors import json_error
from shared.service.keys import READS, STORE


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
    store, reads = request.app[STORE], request.app[READS]
    async with reads.connection() as conn:
        game_events, rng_events = await fetch_game(store.on(conn), game_id)
    try:
        game = auditable(game_id, game_events, rng_events)
    except NotAuditable as refused:
        if reads.replica is None:
            return refusal(refused, what)
        # The replica may not have replayed the game's end yet: the primary has it. (An ended game never changes,
        # so a replica that has replayed its seed's reveal has all of it.)
        game_events, rng_events = await fetch_game(store, game_id)
        try:
            game = auditable(game_id, game_events, rng_events)
        except NotAuditable as still:
            return refusal(still, what)
    return EndedGame(game_id, game, game_events, rng_events)


def refusal(refused: NotAuditable, what: str) -> web.Response:
    message = f"{refused.message} ({what} comes once it has ended)" if refused.status == 409 else refused.message
    return json_error(refused.status, refused.code, message)
