"""The JSON feeds under /v1 (docs/feeds.md): one thin handler per resource."""

from __future__ import annotations

import msgspec
from aiohttp import web

from services.standings import feed, quarantine, reads
from services.standings.feed import after_of
from services.standings.http import INT_MAX, BadRequest, flag_of, limit_of, not_found, number_of, page, respond
from services.standings.names import with_names
from services.standings.replay import steps
from shared.eventstore import RecordedEvent
from shared.eventstore.read_replica import read_ended
from shared.eventstore.types import STREAM_ID
from shared.messages.engine import GameAbandoned, GameEnded
from shared.service.keys import READS, STORE

ENDS = frozenset({GameEnded.__struct_config__.tag, GameAbandoned.__struct_config__.tag})


def ended(events: list[RecordedEvent]) -> bool:
    return any(e.type in ENDS for e in events)


async def counters(request: web.Request) -> web.Response:
    async with request.app[READS].connection() as conn:
        found = await reads.counters(conn)
        found["quarantined_streams"] = await conn.fetchval("SELECT count(*) FROM standings_quarantine")
        return respond(request, found)


async def quarantined(request: web.Request) -> web.Response:
    """Streams left out of the projections from an unreadable event on (services/standings/quarantine.py)."""
    limit = limit_of(request)
    async with request.app[READS].connection() as conn:
        items = await quarantine.listing(conn, request.query.get("after", ""), limit)
    return respond(request, page(items, limit, lambda i: i["stream_id"]))


async def tournaments(request: web.Request) -> web.Response:
    limit = limit_of(request)
    async with request.app[READS].connection() as conn:
        items = await reads.tournaments(conn, request.query.get("after", ""), limit)
    return respond(request, page(items, limit, lambda i: i["tournament_id"]))


async def leaderboard(request: web.Request) -> web.Response:
    tournament = request.match_info["tournament_id"]
    async with request.app[READS].connection() as conn:
        board = await reads.tournament_leaderboard(conn, tournament)
    if board is None:
        raise not_found("tournament", tournament)
    return respond(request, board)


async def tournament_games(request: web.Request) -> web.Response:
    tournament = request.match_info["tournament_id"]
    running = flag_of(request, "running")
    async with request.app[READS].connection() as conn:
        games = await reads.tournament_games(conn, tournament)
        if not games:
            raise not_found("tournament", tournament)
        items = [msgspec.to_builtins(g) for g in games if running is None or g.running == running]
        await with_names(conn, items)
    return respond(request, {"items": items, "next": None})


async def seasons(request: web.Request) -> web.Response:
    limit = limit_of(request)
    async with request.app[READS].connection() as conn:
        items = await reads.seasons(conn, request.query.get("after", ""), limit, flag_of(request, "running"))
    return respond(request, page(items, limit, lambda i: i["season_id"]))


async def season(request: web.Request) -> web.Response:
    season_id = request.match_info["season_id"]
    async with request.app[READS].connection() as conn:
        found = await reads.season(conn, season_id)
    if found is None:
        raise not_found("season", season_id)
    return respond(request, found)


async def ratings(request: web.Request) -> web.Response:
    limit = limit_of(request)
    min_games = number_of(request, "min_games", 0, 0, INT_MAX)
    order = request.query.get("order", "player_id")
    if order not in ("player_id", "ordinal"):
        raise BadRequest("standings.bad-order", f"order must be player_id or ordinal, not {order!r}")
    async with request.app[READS].connection() as conn:
        items = await reads.ratings(conn, request.query.get("after", ""), limit, min_games, order == "ordinal")
    if order == "ordinal":
        return respond(request, {"items": items, "next": None})
    return respond(request, page(items, limit, lambda i: i["player_id"]))


async def history(request: web.Request) -> web.Response:
    limit = limit_of(request)
    player = request.match_info["player_id"]
    async with request.app[READS].connection() as conn:
        items = await reads.history(conn, player, after_of(request.query.get("after")), limit)
    if not items and "after" not in request.query:
        raise not_found("player", player)
    return respond(request, page(items, limit, lambda i: f"{i['tx']}-{i['position']}"))


async def boards(request: web.Request) -> web.Response:
    limit = limit_of(request)
    game = request.query.get("game")
    if game not in (None, "vortex", "hockeydice"):
        raise BadRequest("standings.bad-game", f"game must be vortex or hockeydice, not {game!r}")
    async with request.app[READS].connection() as conn:
        items = await reads.boards(conn, request.query.get("after", ""), limit, game, flag_of(request, "running"))
    return respond(request, page(items, limit, lambda i: i["game_id"]))


async def board(request: web.Request) -> web.Response:
    game_id = request.match_info["game_id"]
    async with request.app[READS].connection() as conn:
        found = await reads.board(conn, game_id)
    if found is None:
        raise not_found("board", game_id)
    return respond(request, found)


async def replay(request: web.Request) -> web.Response:
    game_id = request.match_info["game_id"]
    if not STREAM_ID.match(game_id) or game_id.split("-", 1)[0] not in ("vortex", "hockeydice", "phantoms"):
        raise BadRequest("standings.bad-game-id", f"{game_id!r} is not a game id like vortex-<id>")
    events = await read_ended(request.app[READS], request.app[STORE], game_id, ended)
    if not events:
        raise not_found("game", game_id)
    if not ended(events):
        raise BadRequest("standings.game-running", f"{game_id} has not ended; only finished games replay", 409)
    return respond(request, {"game_id": game_id, "game": game_id.split("-", 1)[0], "steps": steps(game_id, events)})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/v1/counters", counters)
    app.router.add_get("/v1/quarantine", quarantined)
    app.router.add_get("/v1/tournaments", tournaments)
    app.router.add_get("/v1/tournaments/{tournament_id}/leaderboard", leaderboard)
    app.router.add_get("/v1/tournaments/{tournament_id}/games", tournament_games)
    app.router.add_get("/v1/seasons", seasons)
    app.router.add_get("/v1/seasons/{season_id}", season)
    app.router.add_get("/v1/ratings", ratings)
    app.router.add_get("/v1/players/{player_id}/history", history)
    app.router.add_get("/v1/boards", boards)
    app.router.add_get("/v1/boards/{game_id}", board)
    app.router.add_get("/v1/games/{game_id}/replay", replay)
    app.router.add_get("/v1/changes", feed.changes)
    app.router.add_get("/v1/feed", feed.sse)
    app.router.add_get("/v1/feed/ws", feed.websocket)
