"""The engine's side of the RNG service: signed requests for a game's seed and its numbered draws."""

from __future__ import annotations

import time

from nats.aio.client import Client

from shared.bus.namespace import Namespace
from shared.bus.rpc import request
from shared.fairness.engine_auth import sign
from shared.games.draws import DrawRequest
from shared.messages.rng import AddClientSeed, Commitment, CreateSeed, DrawNumbers, NumberedDraw


class RngClient:
    def __init__(self, nc: Client, ns: Namespace, engine_key: bytes) -> None:
        self.nc = nc
        self.ns = ns
        self.key = engine_key

    async def open_game(self, game_id: str, seats: int) -> Commitment:
        auth = sign(self.key, "create", game_id, seats)
        return await request(self.nc, self.ns.command("rng", "create"),
                             CreateSeed(game_id=game_id, seats=seats, auth=auth), Commitment)

    async def add_client_seed(self, game_id: str, seat: int, client_seed: str) -> Commitment:
        auth = sign(self.key, "client_seed", game_id, seat, client_seed)
        return await request(self.nc, self.ns.command("rng", "client_seed"),
                             AddClientSeed(game_id=game_id, seat=seat, client_seed=client_seed, auth=auth), Commitment)

    async def draw(self, game_id: str, nonce: int, draw_request: DrawRequest) -> NumberedDraw:
        issued_at = time.time()
        auth = sign(self.key, "draw", game_id, nonce, draw_request, issued_at)
        return await request(self.nc, self.ns.command("rng", "draw"),
                             DrawNumbers(game_id=game_id, nonce=nonce, request=draw_request, issued_at=issued_at,
                                         auth=auth), NumberedDraw)
