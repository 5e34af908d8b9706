"""The engine's side of the RNG service: signed requests for games' seeds and their numbered draws."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from nats.aio.client import Client

from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.fairness.engine_auth import sign
from shared.games.draws import DrawRequest
from shared.logging import correlation, current_correlation_id
from shared.messages.rng import (
    AddClientSeed,
    BlocksAhead,
    BlocksAnswers,
    Commitment,
    Commitments,
    CreateSeed,
    CreateSeeds,
    DrawAnswers,
    DrawNumbers,
    GameSeats,
    NumberedDraw,
    WantedBlocks,
    WantedDraw,
    blocks_signed,
    create_many_signed,
    draws_signed,
)

W = TypeVar("W")
A = TypeVar("A")
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
        self._draws = TurnBatch(self._ask_draws)
        self._blocks = TurnBatch(self._ask_blocks)

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
        for a game without any). Stated, the RNG answers from memory; None, it reads its stream first.

        The draws the engine's commands ask for in one turn of the event loop (a burst of requests handled
        together) go in one request: it leaves at the end of that turn, so a draw asked alone waits for nothing."""
        return await self._draws.ask(WantedDraw(game_id=game_id, nonce=nonce, request=draw_request,
                                                client_seeds=client_seeds, correlation_id=current_correlation_id()))

    async def _ask_draws(self, draws: tuple[WantedDraw, ...]) -> list[NumberedDraw | Exception]:
        issued_at = time.time()
        auth = sign(self.key, *draws_signed(draws, issued_at))
        with correlation(draws[0].correlation_id if len(draws) == 1 else None):
            answer = await request(self.nc, self.ns.command("rng", "draws"),
                                   DrawNumbers(draws=draws, issued_at=issued_at, auth=auth), DrawAnswers)
        return [one.draw if one.draw is not None else _refused(one.code, one.message) for one in answer.answers]

    async def blocks(self, wanted: WantedBlocks) -> bytes:
        """Block 0 of the byte streams of a game's coming draws (``services.engine.draws_ahead``), asked together
        with the other games asking in the same turn of the event loop."""
        return await self._blocks.ask(wanted)

    async def _ask_blocks(self, wanted: tuple[WantedBlocks, ...]) -> list[bytes | Exception]:
        issued_at = time.time()
        auth = sign(self.key, *blocks_signed(wanted, issued_at))
        answer = await request(self.nc, self.ns.command("rng", "blocks"),
                               BlocksAhead(wanted=wanted, issued_at=issued_at, auth=auth), BlocksAnswers)
        return [one.blocks if one.blocks is not None else _refused(one.code, one.message) for one in answer.answers]


def _refused(code: str | None, message: str | None) -> RejectedError:
    return RejectedError(code or "rng.refused", message or "the RNG refused")


class TurnBatch(Generic[W, A]):
    """What is asked in one turn of the event loop, sent as one request at the end of that turn; ``send`` answers
    each item (an answer or the exception for it alone), or raises for all of them."""

    def __init__(self, send: Callable[[tuple[W, ...]], Awaitable[list[A | Exception]]]) -> None:
        self._send = send
        self._items: list[tuple[W, asyncio.Future[A]]] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def ask(self, item: W) -> A:
        future: asyncio.Future[A] = asyncio.get_running_loop().create_future()
        self._items.append((item, future))
        if len(self._items) == 1:
            asyncio.get_running_loop().call_soon(self._send_waiting)
        return await future

    def _send_waiting(self) -> None:
        items, self._items = self._items, []
        task = asyncio.create_task(self._answer(items))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _answer(self, items: list[tuple[W, asyncio.Future[A]]]) -> None:
        try:
            answers = await self._send(tuple(item for item, _ in items))
        except Exception as error:
            for _, future in items:
                if not future.done():
                    future.set_exception(error)
            return
        for (_, future), answer in zip(items, answers, strict=True):
            if future.done():
                continue
            if isinstance(answer, Exception):
                future.set_exception(answer)
            else:
                future.set_result(answer)
