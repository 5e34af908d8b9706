"""Tournaments and quick play over HTTP, answered by the matchmaking service."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from aiohttp import web

from services.gateway.auth import require_player
from services.gateway.body import body_of
from services.gateway.keys import MATCHMAKING_CLIENT
from services.gateway.routes import Route, add_routes
from services.gateway.routes_games import json
from services.gateway.schemas import GameName
from shared.bus.replies import RejectedError
from shared.messages.tournaments import CreateTournamentRequest, JoinQueue, RegisterPlayer
from shared.refusals import Refusal
from shared.tournaments.decide import MAX_PLAYERS, TOURNAMENT_ID
from shared.tournaments.formats import Format


class NewTournament(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    game: GameName
    format: Format
    max_players: Annotated[int, msgspec.Meta(ge=2, le=MAX_PLAYERS)]
    options: dict[str, Any] = {}
    turn_seconds: Annotated[float, msgspec.Meta(ge=1, le=86_400)] | None = None
    """Seconds a player has for each turn; one who does not act in time is played by the default bot. Omitted: 120."""
    client_seed_seconds: Annotated[float, msgspec.Meta(ge=1, le=3_600)] | None = None
    """Every game waits this long (at most) for its seated players' client seeds before its opening."""


class Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    bot: str | None = None
    """Let the league's own bot play your seats ("random" or "greedy"); None: you play them yourself."""


class QueueEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: GameName
    seats: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: dict[str, Any] = {}


class MyTable(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    status: str
    round: int
    game_id: str | None
    """Your game still to be played, if any."""


def tournament_of(request: web.Request) -> str:
    """The path's tournament id; 404 for an id no tournament can have, before matchmaking is asked."""
    tournament_id = request.match_info["tournament_id"]
    if not TOURNAMENT_ID.match(tournament_id):
        raise RejectedError(Refusal.TOURNAMENT_UNKNOWN, f"no tournament {tournament_id!r}: an id is 1 to 64 letters,"
                            " digits or _")
    return tournament_id


async def create(request: web.Request) -> web.Response:
    """POST /v1/tournaments: the caller is its organiser, the only player who may start it."""
    player_id = await require_player(request)
    body = await body_of(request, NewTournament)
    ref = await request.app[MATCHMAKING_CLIENT].create(CreateTournamentRequest(
        name=body.name, game=body.game, format=body.format, max_players=body.max_players,
        options=msgspec.Raw(msgspec.json.encode(body.options)), turn_seconds=body.turn_seconds,
        client_seed_seconds=body.client_seed_seconds, organiser=player_id))
    return json(ref, 201)


async def register(request: web.Request) -> web.Response:
    """POST /v1/tournaments/{tournament_id}/players: enter the tournament yourself."""
    player_id = await require_player(request)
    tournament_id = tournament_of(request)
    body = await body_of(request, Entry) if request.body_exists else Entry()
    ref = await request.app[MATCHMAKING_CLIENT].register(RegisterPlayer(
        tournament_id=tournament_id, player_id=player_id, bot=body.bot))
    return json(ref, 201)


async def start(request: web.Request) -> web.Response:
    """POST /v1/tournaments/{tournament_id}/start: only by its organiser (403 for anyone else)."""
    player_id = await require_player(request)
    return json(await request.app[MATCHMAKING_CLIENT].start(tournament_of(request), player_id))


async def get(request: web.Request) -> web.Response:
    """GET /v1/tournaments/{tournament_id}: players, rounds, tables, standings and, at the end, the ranking."""
    return json(await request.app[MATCHMAKING_CLIENT].recent(tournament_of(request)))


async def mine(request: web.Request) -> web.Response:
    """GET /v1/tournaments/{tournament_id}/me: your game to play now, if any."""
    player_id = await require_player(request)
    view, round_, game_id = await request.app[MATCHMAKING_CLIENT].next_game(tournament_of(request), player_id)
    return json(MyTable(tournament_id=view.tournament_id, status=view.status, round=round_, game_id=game_id))


async def join_queue(request: web.Request) -> web.Response:
    """POST /v1/queue: wait for a table of your game; seated by rating band, the band widening as you wait."""
    player_id = await require_player(request)
    body = await body_of(request, QueueEntry)
    return json(await request.app[MATCHMAKING_CLIENT].join_queue(JoinQueue(
        player_id=player_id, game=body.game, seats=body.seats,
        options=msgspec.Raw(msgspec.json.encode(body.options)))))


async def queue_status(request: web.Request) -> web.Response:
    """GET /v1/queue: waiting, or seated with your game id."""
    return json(await request.app[MATCHMAKING_CLIENT].queue_status(await require_player(request)))


async def leave_queue(request: web.Request) -> web.Response:
    """DELETE /v1/queue"""
    return json(await request.app[MATCHMAKING_CLIENT].leave_queue(await require_player(request)))


ROUTES = (
    Route("POST", "/v1/tournaments", create, "createTournament"),
    Route("GET", "/v1/tournaments/{tournament_id}", get, "getTournament"),
    Route("POST", "/v1/tournaments/{tournament_id}/players", register, "enterTournament"),
    Route("POST", "/v1/tournaments/{tournament_id}/start", start, "startTournament"),
    Route("GET", "/v1/tournaments/{tournament_id}/me", mine, "getMyTable"),
    Route("POST", "/v1/queue", join_queue, "joinQueue"),
    Route("GET", "/v1/queue", queue_status, "getQueue"),
    Route("DELETE", "/v1/queue", leave_queue, "leaveQueue"),
)


def add_tournament_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
