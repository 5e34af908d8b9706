"""Moves nobody types: bot seats play as soon as it is their turn, a seat whose turn timer ran out gets the
default bot's move, recorded as such (``by_bot``), and a game whose client-seed window closed is started. A bot
move's command id follows from the game's version, so replicas that race to make the same move append it once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime

import msgspec

from services.engine.handler import Engine
from shared.bus.partitions import partition_of
from shared.bus.replies import RejectedError
from shared.logging import correlation, get_logger, new_correlation_id
from shared.messages.engine import PlayCommand
from shared.play.table import Table

DEFAULT_BOT = "greedy"
RUNNING_ENGINE_GAMES = """
    SELECT o.stream_id, o.data->>'turn_seconds' IS NOT NULL OR o.data->>'client_seed_seconds' IS NOT NULL
    FROM events o
    WHERE o.type = 'engine.GameOpened'
      AND (o.data->>'turn_seconds' IS NOT NULL OR o.data->>'client_seed_seconds' IS NOT NULL
           OR jsonb_path_exists(o.data->'bots', '$[*] ? (@ != null)'))
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = o.stream_id
                      AND e.type IN ('engine.GameEnded', 'engine.GameAbandoned'))
"""
MAX_BOT_MOVES = 100_000
log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


def due_seats(table: Table, now: datetime) -> list[tuple[int, str, str]]:
    """(seat, bot, reason) for each seat that the engine must play now."""
    if table.rules is None or table.opened is None or table.ended is not None or not table.started:
        return []
    pending = sorted(table.rules.pending_seats(table.state))
    due = [(seat, bot, "bot") for seat in pending if (bot := table.bot_of(seat))]
    timer = table.opened.turn_seconds
    if timer and table.last_recorded_at and (now - table.last_recorded_at).total_seconds() >= timer:
        due += [(seat, DEFAULT_BOT, "timeout") for seat in pending if not table.bot_of(seat)]
    return due


async def play_due(engine: Engine, game_id: str, now: datetime | None = None) -> int:
    """Play every move the engine owes in this game, until a person must act; returns the moves made."""
    moves = 0
    while moves < MAX_BOT_MOVES:
        table = await engine.games.table(game_id, ended_from_memory=True)
        at = now or datetime.now(UTC)
        if table.start_due(at):
            try:
                with correlation(new_correlation_id()):
                    if not await engine.start_when_due(game_id, at):
                        return moves  # not yet by the database's clock: the watch looks again
            except RejectedError as error:
                log.error("autoplay.start-failed", game_id=game_id, code=error.code, reason=error.message)
                return moves
            continue
        due = due_seats(table, at)
        if not due:
            return moves
        seat, bot, reason = due[0]
        assert table.rules is not None
        command = table.rules.bots[bot](table.state, seat, random.Random(f"{game_id}:{table.version}:{seat}"))
        by_bot = bot if reason == "bot" else f"timeout:{bot}"
        try:
            # A move the engine makes is a command of its own: one correlation id for all it appends.
            with correlation(new_correlation_id()):
                await engine.play(PlayCommand(game_id=game_id, command=msgspec.Raw(_encoder.encode(command)),
                                              command_id=f"{reason}:{table.version}:{seat}", actor=f"bot:{bot}",
                                              by_bot=by_bot))
        except RejectedError as error:
            log.error("autoplay.rejected", game_id=game_id, seat=seat, bot=bot, code=error.code, reason=error.message)
            return moves
        moves += 1
    return moves


class Autoplay:
    """Runs ``play_due`` for a game in the background, one task per game at a time."""

    def __init__(self, engine: Engine, owns: Callable[[str], bool] = lambda _game_id: True) -> None:
        self.engine = engine
        self.owns = owns
        """Whether this replica owns the game's partition now: only the owner plays a game's moves."""
        self._tasks: dict[str, asyncio.Task[int]] = {}
        self._again: set[str] = set()
        self.timed_games: set[str] = set()
        self.rescan_due = False
        """Set when this replica gains a partition: the next look of the watch reads which of its games owe moves."""

    def poke(self, game_id: str) -> None:
        if not self.owns(game_id):
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)  # the running pass may have looked before this change: look once more
            return
        task = self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"autoplay:{game_id}")
        task.add_done_callback(lambda done: self._tasks.pop(game_id) if self._tasks.get(game_id) is done else None)

    async def _run(self, game_id: str) -> int:
        moves = 0
        while True:
            self._again.discard(game_id)
            try:
                moves += await play_due(self.engine, game_id)
            except Exception:
                log.exception("autoplay.failed", game_id=game_id)
            if game_id not in self._again:
                return moves

    async def rescan(self) -> None:
        """Every running game that owes the engine moves, as the log says (another replica may have created it,
        and died): timed games are watched from now on, and each is looked at once."""
        async with self.engine.pool.acquire() as conn:
            rows = await conn.fetch(RUNNING_ENGINE_GAMES)
        rows = [row for row in rows if self.owns(row[0])]
        self.timed_games.update(row[0] for row in rows if row[1])
        for row in rows:
            self.poke(row[0])

    async def watch(self, interval: float = 0.5, rescan_seconds: float = 30.0) -> None:
        """Pokes the timed games whose time ran out, and every ``rescan_seconds`` all games owing moves."""
        rescanned = -rescan_seconds
        while True:
            await asyncio.sleep(interval)
            if (now := asyncio.get_running_loop().time()) - rescanned >= rescan_seconds or self.rescan_due:
                rescanned, self.rescan_due = now, False
                try:
                    await self.rescan()
                except Exception:
                    log.exception("autoplay.rescan-failed")
            for game_id in list(self.timed_games):
                if not self.owns(game_id):
                    self.timed_games.discard(game_id)  # its new owner watches it (its rescan finds it)
                    continue
                table = await self.engine.games.table(game_id, ended_from_memory=True)
                if table.ended is not None or (table.started and table.opened and not table.opened.turn_seconds):
                    self.timed_games.discard(game_id)  # over, or only its seed window was timed
                elif table.start_due(wall := datetime.now(UTC)) or due_seats(table, wall):
                    self.poke(game_id)

    async def forget(self, partition: int) -> None:
        """Stop playing the games of a partition this replica gives up."""
        gone = [task for game_id, task in self._tasks.items() if partition_of(game_id) == partition]
        for task in gone:
            task.cancel()
        await asyncio.gather(*gone, return_exceptions=True)
        self.timed_games = {g for g in self.timed_games if partition_of(g) != partition}

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
