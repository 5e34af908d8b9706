"""A bot that plays through the gateway like a person: it sees only its own view and its legal moves, and waits
for the next change on its WebSocket between moves."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec

from shared.client.http import ApiError, LeagueClient
from shared.messages.engine import GameView

DEFER_SECONDS = 2.0
"""How long a seat waits for a lower seat that may act now too: the lower seat's move (a roll both teams make
together, say) may settle it, so the two do not race to send a move only one of them can make. Once a lower seat
has let the time pass (a player who left: the turn timer plays for them), the seat stops waiting in that game."""
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
                    on_view: Callable[[GameView], None] | None = None, defer_seconds: float = DEFER_SECONDS
                    ) -> GameView:
    """Play our seat to the end, choosing uniformly among the legal moves the gateway lists."""
    moves, defer = 0, defer_seconds
    loop = asyncio.get_running_loop()
    last_news, wait = loop.time(), RECONNECT_FIRST
    while loop.time() - last_news < GIVE_UP_SECONDS:
        async with LiveViews(client.views(game_id)) as views:
            async for view in views:
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
                if views.waiting():
                    continue  # the game has moved on: decide on the newer view
                if defer and min(view.pending_seats) < view.seat:
                    if await views.arrives_within(defer):
                        continue
                    defer = 0.0  # the lower seat is away or slow: the rest of the game does not wait for it
                moves = await move(client, view, rng, moves)
        final = await client.view(game_id)  # the live feed dropped (a gateway restarting?): how does it stand?
        if final.ended:
            if on_view:
                on_view(final)
            return final
        await asyncio.sleep(wait * random.uniform(0.5, 1.0))
        wait = min(wait * 2, RECONNECT_LONGEST)
    raise RuntimeError(f"{game_id}: the live feed gave nothing new for {GIVE_UP_SECONDS:.0f}s")


async def move(client: LeagueClient, view: GameView, rng: random.Random, moves: int) -> int:
    """One of the seat's legal moves, chosen uniformly; returns how many moves we have sent."""
    commands = msgspec.json.decode(view.legal)
    version = view.version
    if commands is None:  # a view from a league that does not send the seat's moves with it
        legal, commands = await client.legal(view.game_id)
        version = legal.version
    if not commands:
        return moves
    command: Any = rng.choice(commands)
    await send(client, view.game_id, command, f"v{version}-{moves}")
    return moves + 1


class LiveViews:
    """A game's views as they come, read ahead by a task of their own, so a bot can wait a while for the next one
    without giving up the connection."""

    def __init__(self, views: AsyncIterator[GameView]) -> None:
        self._views = views
        self._queue: asyncio.Queue[GameView | Exception | None] = asyncio.Queue()
        self._arrived = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LiveViews:
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._reader is not None
        self._reader.cancel()
        await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        end: Exception | None = None
        try:
            async for view in self._views:
                self._queue.put_nowait(view)
                self._arrived.set()
        except Exception as error:
            end = error
        finally:
            self._queue.put_nowait(end)
            self._arrived.set()

    def __aiter__(self) -> LiveViews:
        return self

    async def __anext__(self) -> GameView:
        item = await self._queue.get()
        if item is None:
            self._queue.put_nowait(None)  # the feed stays ended for whoever asks again
            raise StopAsyncIteration
        if isinstance(item, Exception):
            raise item
        return item

    def waiting(self) -> bool:
        """Whether something (a newer view, or the feed's end) is there to read now."""
        return not self._queue.empty()

    async def arrives_within(self, seconds: float) -> bool:
        """Whether something is there to read now or within ``seconds``."""
        if self._queue.empty():
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    await self._arrived.wait()
        return not self._queue.empty()
