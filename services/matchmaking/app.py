from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from nats.aio.msg import Msg

from services.matchmaking.follower import follow
from services.matchmaking.opener import Opener
from services.matchmaking.queue import Queue
from services.matchmaking.seats import seat_range
from services.matchmaking.settings import MatchmakingSettings
from services.matchmaking.tournaments import Tournaments
from shared.bus.replies import RejectedError
from shared.bus.rpc import Served, serve, stop_serving
from shared.messages.games import requested_options
from shared.messages.tournaments import (
    CreateTournamentRequest,
    GetTournament,
    JoinQueue,
    LeaveQueue,
    QueueStatus,
    QueueTicket,
    RegisterPlayer,
    StartTournament,
    TournamentRef,
    TournamentView,
)
from shared.refusals import Refusal
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import HANDLER_METRICS, NAMESPACE, NATS, POOL, STORE
from shared.tournaments.commands import CreateTournament, Register, Start
from shared.tournaments.quickplay import Banding
from shared.tournaments.view import view

TOURNAMENTS = web.AppKey("tournaments", Tournaments)
QUEUE = web.AppKey("queue", Queue)
MIGRATIONS = Path(__file__).parent / "migrations"


def build(settings: MatchmakingSettings) -> web.Application:
    app = base_app("matchmaking", settings)
    use_store(app, settings, {"matchmaking": MIGRATIONS})
    use_nats(app, settings)

    async def matchmaking_ctx(app: web.Application) -> AsyncIterator[None]:
        nc, ns = app[NATS], app[NAMESPACE]
        opener = Opener(nc, ns, settings.engine_timeout)
        tournaments = app[TOURNAMENTS] = Tournaments(app[STORE], app[POOL], opener)
        queue = app[QUEUE] = Queue(app[POOL], opener, Banding(base=settings.band_base,
                                                               widen_per_second=settings.band_widen_per_second))

        async def create(request: CreateTournamentRequest, msg: Msg) -> TournamentRef:
            options = requested_options(request.game, request.options, Refusal.TOURNAMENT_INVALID)
            seats = seat_range(request.game, options)
            if seats is None:
                raise RejectedError(Refusal.TOURNAMENT_INVALID, f"{request.game} refuses these options at any table")
            tournament_id = request.tournament_id or uuid.uuid4().hex[:16]
            _, version = await tournaments.execute(tournament_id, CreateTournament(
                tournament_id=tournament_id, name=request.name, game=request.game, options=request.options,
                format=request.format, max_players=request.max_players, seats=seats,
                turn_seconds=request.turn_seconds, client_seed_seconds=request.client_seed_seconds,
                organiser=request.organiser))
            return TournamentRef(tournament_id=tournament_id, version=version)

        async def register(request: RegisterPlayer, msg: Msg) -> TournamentRef:
            _, version = await tournaments.execute(request.tournament_id,
                                                   Register(player_id=request.player_id, bot=request.bot))
            return TournamentRef(tournament_id=request.tournament_id, version=version)

        async def start(request: StartTournament, msg: Msg) -> TournamentView:
            return view(*await tournaments.execute(request.tournament_id, Start(by=request.player_id)))

        async def get(request: GetTournament, msg: Msg) -> TournamentView:
            return view(*await tournaments.state(request.tournament_id))

        async def join(request: JoinQueue, msg: Msg) -> QueueTicket:
            return await queue.join(request)

        async def leave(request: LeaveQueue, msg: Msg) -> QueueTicket:
            return await queue.leave(request.player_id)

        async def status(request: QueueStatus, msg: Msg) -> QueueTicket:
            return await queue.status(request.player_id)

        async def served(verb: str, request_type: type[Any], handler: Callable[[Any, Msg], Awaitable[Any]]) -> Served:
            return await serve(nc, ns.command("matchmaking", verb), request_type, handler, queue="matchmaking",
                               metrics=app[HANDLER_METRICS].subject(f"matchmaking.{verb}"))

        subscriptions = [
            await served("create", CreateTournamentRequest, create),
            await served("register", RegisterPlayer, register),
            await served("start", StartTournament, start),
            await served("get", GetTournament, get),
            await served("queue.join", JoinQueue, join),
            await served("queue.leave", LeaveQueue, leave),
            await served("queue.status", QueueStatus, status),
        ]
        yield
        await stop_serving(subscriptions)
        await tournaments.close()

    async def results(app: web.Application) -> None:
        await follow(app[STORE], app[POOL], app[TOURNAMENTS])

    async def quick_play(app: web.Application) -> None:
        while True:
            await app[TOURNAMENTS].retry_unopened()
            await app[QUEUE].form()
            await asyncio.sleep(settings.queue_interval)

    app.cleanup_ctx.append(matchmaking_ctx)
    background(app, "results", results)
    background(app, "quick-play", quick_play)
    return app
