"""A bot that plays through the gateway like a person: it sees only its own view and its legal moves, and waits
for the next change on its WebSocket between moves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import msgspec

from shared.client.http import ApiError, LeagueClient
from shared.messages.engine import GameView

RECONNECTS = 20
BUSY = {503, 504}
BUSY_RETRIES = 10
MOVED_ON = {409, 422}
"""The game changed between our look and our move (a rule now refuses it, or the game ended)."""


async def send(client: LeagueClient, game_id: str, command: Any, key: str) -> None:
    """Send a move; when the league is too busy to answer, send it again under the same Idempotency-Key, so it
    is applied once whatever happened to the first try."""
    for attempt in range(BUSY_RETRIES):
        try:
            await client.command(game_id, command, key=key)
            return
        except ApiError as error:
            if error.status in MOVED_ON:
                return
            if error.status not in BUSY or attempt == BUSY_RETRIES - 1:
                raise
        await asyncio.sleep(0.5 * (attempt + 1))


async def give_seed(client: LeagueClient, game_id: str, rng: random.Random) -> None:
    """Our client seed, while the game waits for it; a retry sends the same seed."""
    seed = f"{client.player_id}:{rng.getrandbits(64):016x}"
    for attempt in range(BUSY_RETRIES):
        try:
            await client.client_seed(game_id, seed)
            return
        except ApiError as error:
            if error.status == 409:  # given already, or the window closed meanwhile
                return
            if error.status not in BUSY or attempt == BUSY_RETRIES - 1:
                raise
        await asyncio.sleep(0.5 * (attempt + 1))


async def play_game(client: LeagueClient, game_id: str, rng: random.Random,
                    on_view: Callable[[GameView], None] | None = None) -> GameView:
    """Play our seat to the end, choosing uniformly among the legal moves the gateway lists."""
    moves = 0
    for _connection in range(RECONNECTS):
        async for view in client.views(game_id):
            if on_view:
                on_view(view)
            if view.ended:
                return view
            if view.seat not in view.pending_seats:
                continue
            if view.seeding_until is not None:
                await give_seed(client, game_id, rng)
                continue
            commands = msgspec.json.decode(view.legal)
            version = view.version
            if commands is None:  # a view from a league that does not send the seat's moves with it
                legal, commands = await client.legal(game_id)
                version = legal.version
            if not commands:
                continue
            command: Any = rng.choice(commands)
            await send(client, game_id, command, f"v{version}-{moves}")
            moves += 1
        final = await client.view(game_id)
        if final.ended:
            if on_view:
                on_view(final)
            return final
        await asyncio.sleep(0.2)  # the live feed dropped mid-game: connect again
    raise RuntimeError(f"{game_id}: the live feed kept dropping before the end")
