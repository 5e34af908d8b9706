"""The gateway's side of matchmaking, with a short per-tournament cache: many players asking "where do I play
next?" cost matchmaking one request per tournament per interval, not one each."""

from __future__ import annotations

import asyncio
import time
from typing import TypeVar

import msgspec
from nats.aio.client import Client

from shared.bus.namespace import Namespace
from shared.bus.rpc import request
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

T = TypeVar("T")
FRESH_SECONDS = 0.5


class MatchmakingClient:
    def __init__(self, nc: Client, ns: Namespace, timeout: float) -> None:
        self.nc, self.ns, self.timeout = nc, ns, timeout
        self._views: dict[str, tuple[float, TournamentView]] = {}
        self._seats: dict[str, tuple[TournamentView, dict[str, tuple[int, str]]]] = {}
        self._loading: dict[str, asyncio.Future[TournamentView]] = {}

    async def _ask(self, verb: str, payload: msgspec.Struct, reply: type[T]) -> T:
        return await request(self.nc, self.ns.command("matchmaking", verb), payload, reply, timeout=self.timeout)

    async def create(self, create: CreateTournamentRequest) -> TournamentRef:
        return await self._ask("create", create, TournamentRef)

    async def register(self, register: RegisterPlayer) -> TournamentRef:
        return await self._ask("register", register, TournamentRef)

    async def start(self, tournament_id: str, player_id: str) -> TournamentView:
        return await self._ask("start", StartTournament(tournament_id=tournament_id, player_id=player_id),
                               TournamentView)

    async def get(self, tournament_id: str) -> TournamentView:
        return await self._ask("get", GetTournament(tournament_id=tournament_id), TournamentView)

    async def recent(self, tournament_id: str) -> TournamentView:
        """The view at most FRESH_SECONDS old; concurrent callers share one request."""
        cached = self._views.get(tournament_id)
        if cached and time.monotonic() - cached[0] < FRESH_SECONDS:
            return cached[1]
        loading = self._loading.get(tournament_id)
        if loading is None:
            loading = self._loading[tournament_id] = asyncio.ensure_future(self.get(tournament_id))
            try:
                view = await loading
                self._views[tournament_id] = (time.monotonic(), view)
                return view
            finally:
                del self._loading[tournament_id]
        return await asyncio.shield(loading)

    async def next_game(self, tournament_id: str, player_id: str) -> tuple[TournamentView, int, str | None]:
        """The recent view, and the round and game a player has still to play in it (None: none now). Each view is
        indexed once: every player asking is a lookup, not a walk over every game of every round."""
        view = await self.recent(tournament_id)
        indexed = self._seats.get(tournament_id)
        if indexed is None or indexed[0] is not view:
            indexed = self._seats[tournament_id] = (view, unfinished_games(view))
        last_round = view.rounds[-1].round if view.rounds else 0
        round_, game_id = indexed[1].get(player_id, (last_round, None))
        return view, round_, game_id

    async def join_queue(self, join: JoinQueue) -> QueueTicket:
        return await self._ask("queue.join", join, QueueTicket)

    async def leave_queue(self, player_id: str) -> QueueTicket:
        return await self._ask("queue.leave", LeaveQueue(player_id=player_id), QueueTicket)

    async def queue_status(self, player_id: str) -> QueueTicket:
        return await self._ask("queue.status", QueueStatus(player_id=player_id), QueueTicket)


def unfinished_games(view: TournamentView) -> dict[str, tuple[int, str]]:
    """player id -> (round, game id) of their game not yet finished in the latest round that has one."""
    seats: dict[str, tuple[int, str]] = {}
    for round_ in reversed(view.rounds):
        for table in round_.tables:
            for game in table.games:
                if game.winners is None:
                    for player in game.players:
                        seats.setdefault(player, (round_.round, game.game_id))
    return seats
