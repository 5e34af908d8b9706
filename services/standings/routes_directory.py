"""Players by name, every game newest first, and a tournament round by round (docs/feeds.md)."""

from __future__ import annotations

from aiohttp import web

from services.standings import directory
from services.standings.http import BIGINT_MAX, BadRequest, flag_of, limit_of, not_found, number_of, respond
from services.standings.rounds_read import tournament_rounds
from shared.messages.games import GAMES
from shared.service.keys import READS

MAX_IDS = 500
MAX_NAME = 64


async def players(request: web.Request) -> web.Response:
    limit = limit_of(request)
    ids = None
    if "ids" in request.query:
        ids = [i for i in request.query["ids"].split(",") if i]
        if not 1 <= len(ids) <= MAX_IDS:
            raise BadRequest("standings.bad-ids", f"ids must be 1 to {MAX_IDS} player ids separated by commas")
    name = request.query.get("name")
    if name is not None and not 1 <= len(name) <= MAX_NAME:
        raise BadRequest("standings.bad-name", f"name must be 1 to {MAX_NAME} characters (the start of a name)")
    async with request.app[READS].connection() as conn:
        items = await directory.players(conn, ids, name, request.query.get("after", ""), limit)
    more = len(items) > limit
    items = items[:limit]
    return respond(request, {"items": items, "next": items[-1]["player_id"] if more and items else None})


async def games(request: web.Request) -> web.Response:
    limit = limit_of(request)
    game = request.query.get("game")
    if game is not None and game not in GAMES:
        raise BadRequest("standings.bad-game", f"game must be one of {', '.join(sorted(GAMES))}, not {game!r}")
    before = number_of(request, "after", 0, 1, BIGINT_MAX) if "after" in request.query else None
    async with request.app[READS].connection() as conn:
        items = await directory.games(conn, before=before, limit=limit, game=game, running=flag_of(request, "running"),
                                      player=request.query.get("player") or None,
                                      tournament=request.query.get("tournament") or None)
    more = len(items) > limit
    items = items[:limit]
    return respond(request, {"items": items, "next": str(items[-1]["position"]) if more and items else None})


async def rounds(request: web.Request) -> web.Response:
    tournament = request.match_info["tournament_id"]
    async with request.app[READS].connection() as conn:
        found = await tournament_rounds(conn, tournament)
    if found is None:
        raise not_found("tournament", tournament)
    return respond(request, found)


def add_directory_routes(app: web.Application) -> None:
    app.router.add_get("/v1/players", players)
    app.router.add_get("/v1/games", games)
    app.router.add_get("/v1/tournaments/{tournament_id}/rounds", rounds)
