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

RECONNECT_FIRST = 0.2
RECONNECT_LONGEST = 5.0
GIVE_UP_SECONDS = 600.0
"""A game whose live feed gives nothing new for this long (reconnecting with back-off) is given up."""
MOVED_ON = {409, 422}
"""The game changed between our look and our move (a rule now refuses it, or the game ended)."""


async def send(client: LeagueClient, game_id: str, command: Any, key: str) -> None:
    """Send a move under an Idempotency-Key: the client sends it again while the league cannot answer, and the key
    makes it count once whatever happened to an earlier try."""
    try:
        await client.command(game_id, command, key=key)
    except ApiError as error:
        if error.status not in MOVED_ON:
            raise


async def give_seed(client: LeagueClient, game_id: str, rng: random.Random) -> None:
    """Our client seed, while the game waits for it; a retry sends the same seed."""
    seed = f"{client.player_id}:{rng.getrandbits(64):016x}"
    try:
        await client.client_seed(game_id, seed)
    except ApiError as error:
        if error.status != 409:  # given already, or the window closed meanwhile
            raise


async def play_game(client: LeagueClient, game_id: str, rng: random.Random,
                    on_view: Callable[[GameView], None] | None = None) -> GameView:
    """Play our seat to the end, choosing uniformly among the legal moves the gateway lists."""
    moves = 0
    loop = asyncio.get_running_loop()
    last_news, wait = loop.time(), RECONNECT_FIRST
    while loop.time() - last_news < GIVE_UP_SECONDS:
        async for view in client.views(game_id):
            last_news, wait = loop.time(), RECONNECT_FIRST
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
        final = await client.view(game_id)  # the live feed dropped (a gateway restarting?): how does it stand?
        if final.ended:
            if on_view:
                on_view(final)
            return final
        await asyncio.sleep(wait * random.uniform(0.5, 1.0))
        wait = min(wait * 2, RECONNECT_LONGEST)
    raise RuntimeError(f"{game_id}: the live feed gave nothing new for {GIVE_UP_SECONDS:.0f}s")
