"""A bot that plays a whole tournament through the gateway: it waits for its table, plays it, and goes on."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from shared.client.bot import play_game
from shared.client.http import ApiError, LeagueClient

IDLE_SECONDS = 1.0
NOT_FOUND = 404


async def table_opened(client: LeagueClient, game_id: str, timeout: float = 600) -> None:
    """Matchmaking names a game before the engine has opened it: wait until it exists."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        try:
            await client.view(game_id)
            return
        except ApiError as error:
            if error.status != NOT_FOUND:
                raise
        await asyncio.sleep(0.2)
    raise TimeoutError(f"{game_id} was not opened within {timeout}s")


async def play_when_opened(client: LeagueClient, game_id: str, rng: random.Random) -> None:
    """Play the game, its live feed the first look at it; a game the engine has not opened yet is waited for."""
    try:
        await play_game(client, game_id, rng)
        return
    except ApiError as error:
        if error.status != NOT_FOUND:
            raise
    await table_opened(client, game_id)
    await play_game(client, game_id, rng)


async def play_tournament(client: LeagueClient, tournament_id: str, rng: random.Random,
                          on_game: Callable[[str], None] | None = None) -> int:
    """Play every game the tournament gives us; returns how many we played."""
    played: set[str] = set()
    while True:
        table = await client.my_table(tournament_id)
        game_id = table["game_id"]
        if game_id and game_id not in played:
            await play_when_opened(client, game_id, rng)
            played.add(game_id)
            if on_game:
                on_game(game_id)
            continue
        if table["status"] == "finished":
            return len(played)
        await asyncio.sleep(IDLE_SECONDS * rng.uniform(0.5, 1.5))
