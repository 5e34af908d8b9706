"""Opens games through the engine over NATS. The command id follows from the game id, so opening a game again (a
retry, a replica, a restart) is a no-op at the engine."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import msgspec
from nats.aio.client import Client

from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.logging import get_logger
from shared.messages.engine import CommandResult, CreateGame
from shared.refusals import Refusal

log = get_logger(__name__)
AT_ONCE = 256
"""Games asked of the engines at once when a round opens: the engines and the RNG commit them in groups."""


class Opener:
    def __init__(self, nc: Client, ns: Namespace, timeout: float) -> None:
        self.nc = nc
        self.ns = ns
        self.timeout = timeout
        self._gate = asyncio.Semaphore(AT_ONCE)

    async def open(self, create: CreateGame) -> None:
        async with self._gate:
            try:
                await ask_engine(self.nc, self.ns, create.game_id, "command", create, CommandResult,
                                 timeout=self.timeout)
            except RejectedError as error:
                if error.code != Refusal.ENGINE_CREATE_EXISTS:
                    raise
            log.info("game.opened", game_id=create.game_id, tournament_id=create.tournament_id)

    async def open_all(self, creates: Sequence[CreateGame]) -> list[str]:
        """Open each game; the ids of those that could not be opened (each logged), to be tried again alone."""
        results = await asyncio.gather(*(self.open(c) for c in creates), return_exceptions=True)
        failed = []
        for create, result in zip(creates, results, strict=True):
            if isinstance(result, Exception):
                log.warning("game.open-failed", game_id=create.game_id, tournament_id=create.tournament_id,
                            error=f"{type(result).__name__}: {result}")
                failed.append(create.game_id)
            elif isinstance(result, BaseException):
                raise result
        return failed


def create_game(game: str, game_id: str, players: Sequence[str], bots: Sequence[str | None], options: bytes, *,
                tournament_id: str | None = None, round: int | None = None, table: int | None = None,  # noqa: A002
                turn_seconds: float | None = None, client_seed_seconds: float | None = None) -> CreateGame:
    return CreateGame(game=game, game_id=game_id, seats=len(players), options=msgspec.Raw(options),
                      players=tuple(players), bots=tuple(bots), command_id=f"matchmaking:{game_id}",
                      tournament_id=tournament_id, round=round, table=table, turn_seconds=turn_seconds,
                      client_seed_seconds=client_seed_seconds)
