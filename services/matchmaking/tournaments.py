"""Tournament handlers: load -> fold -> decide -> append(expected version), again on a conflict; then open the
games that the new events seated, in the background so that a request is answered once its events are stored. A
game that could not be opened is tried again by ``retry_unopened`` (and by ``resume`` after a restart)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import asyncpg

from services.matchmaking.opener import Opener, create_game
from services.matchmaking.ratings import ratings_of
from shared.bus.replies import RejectedError
from shared.eventstore import ConcurrencyError, EventStore, ExpectedVersion
from shared.logging import get_logger
from shared.messages.readable import read
from shared.messages.stored import stored
from shared.messages.tournaments import tournament_stream
from shared.refusals import Refusal
from shared.service.keyed_locks import KeyedLocks
from shared.tournaments.commands import Command, Start
from shared.tournaments.decide import decide
from shared.tournaments.errors import TournamentRejected
from shared.tournaments.events import Event, RoundStarted, SeriesGameStarted
from shared.tournaments.state import Game, State, evolve

log = get_logger(__name__)
RETRIES = 20
UNFINISHED_TOURNAMENTS = """
    SELECT DISTINCT stream_id FROM events WHERE type = 'tournament.RoundStarted'
      AND stream_id NOT IN (SELECT stream_id FROM events WHERE type = 'tournament.TournamentFinished')
"""


class Tournaments:
    def __init__(self, store: EventStore, pool: asyncpg.Pool, opener: Opener) -> None:
        self.store = store
        self.pool = pool
        self.opener = opener
        self._cache: dict[str, tuple[State | None, int]] = {}
        self._opening: set[asyncio.Task[None]] = set()
        self.unopened: dict[str, set[str]] = {}
        """tournament id -> its games that could not be opened yet"""
        self._locks = KeyedLocks()

    async def load(self, tournament_id: str) -> tuple[State | None, int]:
        state, version = self._cache.get(tournament_id, (None, 0))
        for recorded in await self.store.read_stream(tournament_stream(tournament_id), version + 1):
            state = evolve(state, read(recorded))  # type: ignore[arg-type]
            version = recorded.version
        self._cache[tournament_id] = (state, version)
        return state, version

    async def state(self, tournament_id: str) -> tuple[State, int]:
        state, version = await self.load(tournament_id)
        if state is None:
            raise RejectedError(Refusal.TOURNAMENT_UNKNOWN, f"no tournament {tournament_id}")
        return state, version

    async def execute(self, tournament_id: str, command: Command, actor: str = "matchmaking") -> tuple[State, int]:
        """Decide and append; returns the tournament after it. Opens the games the new events seated."""
        async with self._locks.hold(tournament_id):  # this replica's commands for one tournament in turn
            return await self._execute(tournament_id, command, actor)

    async def _execute(self, tournament_id: str, command: Command, actor: str) -> tuple[State, int]:
        stream = tournament_stream(tournament_id)
        for _attempt in range(RETRIES):
            state, version = await self.load(tournament_id)
            if isinstance(command, Start) and state is not None:
                command = Start(ratings=await self._ratings(state.player_ids()), by=command.by)
            try:
                events = decide(state, command)
            except TournamentRejected as error:
                raise RejectedError(error.code, error.message) from error
            if not events:
                assert state is not None
                return state, version
            try:
                await self.store.append(stream, [stored(e, actor=actor) for e in events],
                                        version or ExpectedVersion.NO_STREAM)
            except ConcurrencyError:
                log.info("tournament.conflict", tournament_id=tournament_id, version=version)
                continue
            state, version = await self.load(tournament_id)
            assert state is not None
            if games := new_games(state, events):
                self.open_soon(state, games)
            return state, version
        raise RejectedError(Refusal.TOURNAMENT_BUSY,
                            f"tournament {tournament_id} changed too often meanwhile; try again")

    async def open_games(self, state: State, games: Sequence[Game]) -> None:
        """Open ``games``; those that could not be opened are left to ``retry_unopened``, alone: asking the engines
        again for a whole round's games while they are busy with it would only make them busier."""
        created = state.created
        bots = {r.player_id: r.bot for r in state.registered}  # a round of a large field seats thousands at once
        try:
            failed = await self.opener.open_all([
                create_game(created.game, g.game_id, g.players, [bots.get(p) for p in g.players],
                            bytes(created.options), tournament_id=created.tournament_id, round=g.round, table=g.table,
                            turn_seconds=created.turn_seconds, client_seed_seconds=created.client_seed_seconds)
                for g in games])
        except Exception:
            log.exception("tournament.open-failed", tournament_id=created.tournament_id)
            failed = [g.game_id for g in games]
        if failed:
            self.unopened.setdefault(created.tournament_id, set()).update(failed)

    def open_soon(self, state: State, games: Sequence[Game]) -> None:
        task = asyncio.create_task(self.open_games(state, games), name=f"open:{state.created.tournament_id}")
        self._opening.add(task)
        task.add_done_callback(self._opening.discard)

    async def retry_unopened(self) -> None:
        for tournament_id in list(self.unopened):
            # Taken before the wait: a failure recorded meanwhile stays for the next retry.
            game_ids = self.unopened.pop(tournament_id)
            state, _ = await self.state(tournament_id)
            self.open_soon(state, [g for g in state.games if g.winners is None and g.game_id in game_ids])

    async def close(self) -> None:
        for task in self._opening:
            task.cancel()
        await asyncio.gather(*self._opening, return_exceptions=True)

    async def resume(self) -> None:
        """Open any game a running tournament is waiting for (after a crash between appending and opening)."""
        async with self.pool.acquire() as conn:
            rows = await conn.fetch(UNFINISHED_TOURNAMENTS)
        for row in rows:
            state, _ = await self.state(row[0].removeprefix("tournament-"))
            await self.open_games(state, [g for g in state.games if g.winners is None])

    async def _ratings(self, players: list[str]) -> dict[str, float]:
        async with self.pool.acquire() as conn:
            return {p: r.ordinal for p, r in (await ratings_of(conn, players)).items()}


def new_games(state: State, events: Sequence[Event]) -> list[Game]:
    ids = []
    for event in events:
        match event:
            case RoundStarted(tables=tables):
                ids += [t.game_id for t in tables]
            case SeriesGameStarted(seating=seating):
                ids.append(seating.game_id)
    return [game for game_id in ids if (game := state.game(game_id)) is not None]


