"""A finished game for the replay viewer: its timeline (every event, who did what, the draws used), the public view
after any event, and the audit's verdict (docs/feeds.md)."""

from __future__ import annotations

from aiohttp import web

from services.standings.http import BadRequest, limit_of, not_found, number_of, page, respond
from services.standings.keys import VERDICTS, VIEWS
from services.standings.names import names_of
from services.standings.timeline import timeline
from shared.eventstore import RecordedEvent
from shared.eventstore.read_replica import read_ended
from shared.eventstore.types import STREAM_ID
from shared.messages.engine import GameEnded, GameOpened
from shared.messages.games import GAMES
from shared.messages.rng import rng_stream
from shared.messages.stored import loaded
from shared.service.keys import READS, STORE

GAME_ENDED = GameEnded.__struct_config__.tag
MAX_VERSION = 2**31 - 1


def compressed(response: web.Response) -> web.Response:
    """A long body gzipped when the client takes it; a 304 stays bodiless (compressing it breaks the answer)."""
    if response.status == 200:
        response.enable_compression()
    return response


def ended(events: list[RecordedEvent]) -> bool:
    return any(e.type == GAME_ENDED for e in events)


async def finished(request: web.Request) -> tuple[str, list[RecordedEvent]]:
    """The path's game and its events: 400 for an id no game can have, 404 unknown, 409 while it runs."""
    game_id = request.match_info["game_id"]
    if not STREAM_ID.match(game_id) or game_id.split("-", 1)[0] not in GAMES:
        raise BadRequest("standings.bad-game-id", f"{game_id!r} is not a game id like vortex-<id>")
    events = await read_ended(request.app[READS], request.app[STORE], game_id, ended)
    if not events or not isinstance(loaded(events[0]), GameOpened):
        raise not_found("game", game_id)
    if not ended(events):
        raise BadRequest("standings.game-running", f"{game_id} has not ended; only finished games replay", 409)
    return game_id, events


async def game_timeline(request: web.Request) -> web.Response:
    game_id, events = await finished(request)
    opened = loaded(events[0])
    assert isinstance(opened, GameOpened)
    async with request.app[READS].connection() as conn:
        names = await names_of(conn, opened.players)
    return compressed(respond(request, timeline(game_id, events, names)))


async def views(request: web.Request) -> web.Response:
    game_id, events = await finished(request)
    limit = limit_of(request)
    after = number_of(request, "after", 0, 0, MAX_VERSION)
    items = request.app[VIEWS].page(game_id, events, after, limit)
    return compressed(respond(request, page(items, limit, lambda i: str(i["step"]))))


async def verdict(request: web.Request) -> web.Response:
    game_id, events = await finished(request)
    rng = await request.app[STORE].read_stream(rng_stream(game_id))
    return respond(request, await request.app[VERDICTS].verdict(game_id, events, rng))


def add_replay_routes(app: web.Application) -> None:
    app.router.add_get("/v1/games/{game_id}/timeline", game_timeline)
    app.router.add_get("/v1/games/{game_id}/views", views)
    app.router.add_get("/v1/games/{game_id}/audit", verdict)
