"""Seat registered bot clients at a new game and play it to the end through the gateway."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import aiohttp

from shared.client.bot import play_game
from shared.client.http import LeagueClient
from shared.messages.engine import GameView


async def register_bots(session: aiohttp.ClientSession, gateway: str, names: list[str]) -> list[LeagueClient]:
    clients = [LeagueClient(session, gateway) for _ in names]
    await asyncio.gather(*(client.register(name) for client, name in zip(clients, names, strict=True)))
    return clients


async def bot_game(session: aiohttp.ClientSession, gateway: str, game: str, seats: int,
                   options: dict[str, Any] | None = None, seed: int = 0,
                   registered: Callable[[list[str]], None] | None = None,
                   **fields: Any) -> tuple[str, GameView, list[str]]:
    """A game of ``seats`` bot players created and played over HTTP: its id, final view and the players' names.
    ``registered`` hears the players' ids before the game is created."""
    names = [f"{game.capitalize()} bot {n + 1}" for n in range(seats)]
    clients = await register_bots(session, gateway, names)
    if registered is not None:
        registered([c.player_id for c in clients])
    game_id = await clients[0].create_game(game, seats, options=options or {},
                                           players=[c.player_id for c in clients], **fields)
    finals = await asyncio.gather(*(play_game(c, game_id, random.Random(seed + n)) for n, c in enumerate(clients)))
    return game_id, finals[0], names
