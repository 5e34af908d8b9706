"""The engine's side of the RNG service: signed requests for games' seeds and their numbered draws."""

from __future__ import annotations

import time
from collections.abc import Iterable

from nats.aio.client import Client

from shared.bus.namespace import Namespace
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


class RngClient:
    def __init__(self, nc: Client, ns: Namespace, engine_key: bytes) -> None:
        self.nc = nc
        self.ns = ns
        self.key = engine_key

    async def open_game(self, game_id: str, seats: int) -> Commitment:
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
