"""The gateway's side of the engine: every game request goes over NATS to the replica owning the game."""

from __future__ import annotations

from typing import TypeVar

import msgspec
from nats.aio.client import Client

from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.messages.engine import (
    CommandResult,
    CreateGame,
    GameView,
    GetLegal,
    GetView,
    GiveClientSeed,
    LegalCommands,
    PlayCommand,
)

T = TypeVar("T")


class EngineClient:
    def __init__(self, nc: Client, ns: Namespace, timeout: float) -> None:
        self.nc, self.ns, self.timeout = nc, ns, timeout

    async def _ask(self, game_id: str, verb: str, payload: msgspec.Struct, reply: type[T]) -> T:
        return await ask_engine(self.nc, self.ns, game_id, verb, payload, reply, timeout=self.timeout)

    async def create(self, create: CreateGame) -> CommandResult:
        return await self._ask(create.game_id, "command", create, CommandResult)

    async def play(self, play: PlayCommand) -> CommandResult:
        return await self._ask(play.game_id, "command", play, CommandResult)

    async def give_client_seed(self, give: GiveClientSeed) -> CommandResult:
        return await self._ask(give.game_id, "command", give, CommandResult)

    async def view(self, game_id: str, player_id: str | None, at_least_version: int | None = None) -> GameView:
        return await self._ask(game_id, "view", GetView(game_id=game_id, player_id=player_id,
                                                        at_least_version=at_least_version), GameView)

    async def legal(self, game_id: str, player_id: str) -> LegalCommands:
        return await self._ask(game_id, "legal", GetLegal(game_id=game_id, player_id=player_id), LegalCommands)
