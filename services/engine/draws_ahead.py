"""Draws the engine answers itself, from blocks the RNG service handed out ahead (DESIGN.md "The hot path": draws
off the write path, and here off the command's path too).

A draw is a pure function of the seed, the client seeds, the game id, the nonce and the request; the RNG service
keeps the seed and gives out, for a running game, block 0 of the byte streams of its next draws
(``rng.blocks``). A command whose draw fits in its block (a few dice, a small range: almost every draw) is decided
with no request to the RNG service at all; one that does not (a long shuffle), or comes before the blocks arrived,
is asked as before. The numbers are the same either way, ``DrawsUsed`` records them, and the audit recomputes
them from the revealed seed. The engine learns no more than it could already ask for.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from services.engine.rng_client import RngClient
from shared.fairness.recipe import draw_from_first_block
from shared.fairness.stream import BLOCK_BYTES, BlockMissing
from shared.games.draws import DrawRequest
from shared.logging import get_logger
from shared.messages.rng import NumberedDraw, WantedBlocks

log = get_logger(__name__)
AHEAD = 32
"""Draws of a game asked ahead in one go."""
REFILL_BELOW = 12
"""A game with fewer draws than this left ahead asks for the next ``AHEAD``."""
CACHE_GAMES = 50_000
RETRY_SECONDS = 1.0
"""After a refused or failed ask, the game's draws go to the RNG service one by one this long before asking again."""


@dataclass(slots=True)
class _Window:
    client_seeds: tuple[str, ...]
    first_nonce: int
    blocks: bytes = b""
    asking: bool = False
    retry_at: float = 0.0

    @property
    def end(self) -> int:
        return self.first_nonce + len(self.blocks) // BLOCK_BYTES

    def holds(self, nonce: int, client_seeds: tuple[str, ...]) -> bool:
        return client_seeds == self.client_seeds and self.first_nonce <= nonce < self.end


class DrawsAhead:
    def __init__(self, rng: RngClient, *, ahead: int = AHEAD, refill_below: int = REFILL_BELOW,
                 capacity: int = CACHE_GAMES) -> None:
        self.rng = rng
        self.ahead, self.refill_below, self.capacity = ahead, refill_below, capacity
        self.answered = 0
        """Draws answered here, with no request to the RNG service."""
        self._windows: OrderedDict[str, _Window] = OrderedDict()
        self._asking: set[asyncio.Task[None]] = set()

    def take(self, game_id: str, nonce: int, request: DrawRequest,
             client_seeds: tuple[str, ...]) -> NumberedDraw | None:
        """The draw, when its block is at hand and holds enough of its stream; else None (ask the RNG)."""
        window = self._windows.get(game_id)
        if window is None or not window.holds(nonce, client_seeds):
            return None
        start = (nonce - window.first_nonce) * BLOCK_BYTES
        try:
            values = draw_from_first_block(window.blocks[start:start + BLOCK_BYTES], nonce, request)
        except BlockMissing:
            return None
        self.answered += 1
        return NumberedDraw(nonce=nonce, request=request, values=values)

    def look_ahead(self, game_id: str, next_nonce: int, client_seeds: tuple[str, ...]) -> None:
        """Keep blocks for the game's coming draws: when fewer than ``refill_below`` are left from ``next_nonce``,
        ask for more in the background (with the other games asking in the same turn of the event loop)."""
        window = self._windows.get(game_id)
        if window is not None and window.client_seeds == client_seeds and window.first_nonce <= next_nonce:
            self._windows.move_to_end(game_id)
            if (window.asking or window.end - next_nonce >= self.refill_below
                    or asyncio.get_running_loop().time() < window.retry_at):
                return
            start = max(window.end, next_nonce)
        else:
            window = self._windows[game_id] = _Window(client_seeds, next_nonce)
            start = next_nonce
            if len(self._windows) > self.capacity:
                self._windows.popitem(last=False)
        window.asking = True
        task = asyncio.create_task(self._fill(game_id, window, next_nonce, start))
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    async def _fill(self, game_id: str, window: _Window, next_nonce: int, start: int) -> None:
        wanted = WantedBlocks(game_id=game_id, first_nonce=start, count=self.ahead, client_seeds=window.client_seeds)
        try:
            blocks = await self.rng.blocks(wanted)
        except Exception as error:  # the commands ask their draws one by one meanwhile
            log.info("engine.blocks-ahead.failed", game_id=game_id, error=f"{type(error).__name__}: {error}")
            window.asking = False
            window.retry_at = asyncio.get_running_loop().time() + RETRY_SECONDS
            return
        window.asking = False
        if self._windows.get(game_id) is not window:
            return  # forgotten meanwhile (the game ended, or its seeds were not those)
        if window.end != start:  # nothing kept before these: they are the window
            window.first_nonce, window.blocks = start, blocks
            return
        keep_from = max(0, next_nonce - window.first_nonce)
        window.blocks = window.blocks[keep_from * BLOCK_BYTES:] + blocks
        window.first_nonce += keep_from

    def forget(self, game_id: str) -> None:
        self._windows.pop(game_id, None)

    async def close(self) -> None:
        for task in list(self._asking):
            task.cancel()
        await asyncio.gather(*self._asking, return_exceptions=True)
