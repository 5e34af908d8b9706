"""The engine's side of the RNG service: signed requests for games' seeds and their numbered draws."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable

from nats.aio.client import Client

from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.fairness.engine_auth import sign
from shared.games.draws import DrawRequest
from shared.messages.rng import (
    AddClientSeed,
    Commitment,
    Commitments,
    CreateSeed,
    CreateSeeds,
    DrawNumbers,
    GameSeats,
    NumberedDraw,
    create_many_signed,
    draw_signed,
)

MAX_BATCH = 500
"""Games committed in one request (the RNG takes at most 1000)."""


def _fail(waiting: list[tuple[str, int, asyncio.Future[Commitment]]], error: BaseException) -> None:
    for _, _, future in waiting:
        if not future.done():
            future.set_exception(error)


class RngClient:
    def __init__(self, nc: Client, ns: Namespace, engine_key: bytes, *, batch_window: float = 0.002) -> None:
        self.nc = nc
        self.ns = ns
        self.key = engine_key
        self.batch_window = batch_window
        self._waiting: list[tuple[str, int, asyncio.Future[Commitment]]] = []
        self._committing: set[asyncio.Task[None]] = set()

    async def open_game(self, game_id: str, seats: int) -> Commitment:
        """The game's seed commitment. Games opened at about the same time (a round's tables) are committed
        together: the first waits ``batch_window`` for others, then one request commits them all."""
        future: asyncio.Future[Commitment] = asyncio.get_running_loop().create_future()
        self._waiting.append((game_id, seats, future))
        if len(self._waiting) == 1:
            asyncio.get_running_loop().call_later(self.batch_window, self._commit_waiting)
        elif len(self._waiting) >= MAX_BATCH:
            self._commit_waiting()
        return await future

    def _commit_waiting(self) -> None:
        waiting, self._waiting = self._waiting, []
        if waiting:
            task = asyncio.create_task(self._commit(waiting))
            self._committing.add(task)
            task.add_done_callback(self._committing.discard)

    async def _commit(self, waiting: list[tuple[str, int, asyncio.Future[Commitment]]]) -> None:
        try:
            if len(waiting) == 1:
                game_id, seats, _ = waiting[0]
                commitments = [await self.open_one(game_id, seats)]
            else:
                commitments = await self.open_games([(game_id, seats) for game_id, seats, _ in waiting])
        except RejectedError as error:
            if len(waiting) == 1:
                _fail(waiting, error)
                return
            # One game the RNG refuses (its seats, say) refuses the batch: ask for each alone, so only it fails.
            for one in waiting:
                await self._commit([one])
            return
        except Exception as error:
            _fail(waiting, error)
            return
        for (_, _, future), commitment in zip(waiting, commitments, strict=True):
            if not future.done():
                future.set_result(commitment)

    async def open_one(self, game_id: str, seats: int) -> Commitment:
        auth = sign(self.key, "create", game_id, seats)
        return await request(self.nc, self.ns.command("rng", "create"),
                             CreateSeed(game_id=game_id, seats=seats, auth=auth), Commitment)

    async def open_games(self, games: Iterable[tuple[str, int]]) -> list[Commitment]:
        """The seeds of many games committed in one request: ``(game_id, seats)`` each, at most 1000; the
        commitments come back in the same order."""
        batch = tuple(GameSeats(game_id=game_id, seats=seats) for game_id, seats in games)
        auth = sign(self.key, *create_many_signed(batch))
        answer = await request(self.nc, self.ns.command("rng", "create_many"), CreateSeeds(games=batch, auth=auth),
                               Commitments)
        return list(answer.commitments)

    async def add_client_seed(self, game_id: str, seat: int, client_seed: str) -> Commitment:
        auth = sign(self.key, "client_seed", game_id, seat, client_seed)
        return await request(self.nc, self.ns.command("rng", "client_seed"),
                             AddClientSeed(game_id=game_id, seat=seat, client_seed=client_seed, auth=auth), Commitment)

    async def draw(self, game_id: str, nonce: int, draw_request: DrawRequest, *,
                   client_seeds: tuple[str, ...] | None = None) -> NumberedDraw:
        """``client_seeds``: the game's client seeds in seat order (``Table.client_seeds`` sorted by seat; ``()``
        for a game without any). Stated, the RNG answers from memory; None, it reads its stream first."""
        issued_at = time.time()
        auth = sign(self.key, *draw_signed(game_id, nonce, draw_request, issued_at, client_seeds))
        return await request(self.nc, self.ns.command("rng", "draw"),
                             DrawNumbers(game_id=game_id, nonce=nonce, request=draw_request, issued_at=issued_at,
                                         auth=auth, client_seeds=client_seeds), NumberedDraw)
