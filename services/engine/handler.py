"""load -> fold -> draws -> decide -> append(expected version); reload and decide again on a conflict."""

from __future__ import annotations

import random
import uuid
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

import asyncpg
import msgspec

from services.engine.game_lock import GameLocks
from services.engine.rng_client import RngClient
from shared.bus.replies import RejectedError
from shared.eventstore import ConcurrencyError, EventStore, ExpectedVersion, NewEvent
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.fairness import CLIENT_SEED_MAX_BYTES
from shared.games.draws import Draw, Draws, DrawsExhausted, RecordedDraws, SeededDraws
from shared.games.rules import RuleViolation
from shared.logging import current_correlation_id, get_logger
from shared.messages.engine import (
    ClientSeedGiven,
    CommandAccepted,
    CommandResult,
    CreateGame,
    DrawsUsed,
    GameEnded,
    GameOpened,
    GameStarted,
    GameView,
    GetLegal,
    GetView,
    GiveClientSeed,
    LegalCommands,
    PlayCommand,
)
from shared.messages.games import UnknownGame, command_decoder, options_decoder, rules_of
from shared.messages.rng import NumberedDraw
from shared.messages.stored import stored
from shared.play.table import Table, seed_seats
from shared.play.visibility import NOBODY, visibility_of

log = get_logger(__name__)
RETRIES = 8
CACHE_GAMES = 20_000
ID_SPACE = uuid.UUID("0e1c3f8a-2b7d-4e4f-9a51-3c2d1b0f6e77")
_encoder = msgspec.json.Encoder()


class Engine:
    def __init__(self, store: EventStore, pool: asyncpg.Pool, rng: RngClient) -> None:
        self.store = store
        self.pool = pool
        self.rng = rng
        self.locks = GameLocks(pool)
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self.conflicts = 0

    async def table(self, game_id: str, store: EventStore | None = None, at_least: int | None = None) -> Table:
        """The cached fold, brought up to the stream's current version (another replica may have moved it), or
        as it is when it has reached ``at_least`` already. A view may move the cached table on while a command
        awaits its draws: a command reads what it decides on from the table once, before it awaits anything."""
        cached = self._tables.get(game_id)
        if cached is not None and at_least is not None and cached.version >= at_least:
            self._tables.move_to_end(game_id)
            return cached
        table = self._tables.pop(game_id, None) or Table(game_id)
        table.apply_all(await (store or self.store).read_stream(game_id, table.version + 1))
        self._tables[game_id] = table
        if len(self._tables) > CACHE_GAMES:
            self._tables.popitem(last=False)
        return table

    async def create(self, request: CreateGame) -> CommandResult:
        try:
            check_stream_id(request.game_id)
            rules = rules_of(request.game)
            options = options_decoder(request.game).decode(request.options)
        except (InvalidStreamId, UnknownGame) as error:
            raise RejectedError("engine.create.invalid", str(error)) from error
        except msgspec.ValidationError as error:
            raise RejectedError("engine.create.options", f"options for {request.game}: {error}") from error
        if not request.game_id.startswith(f"{request.game}-"):
            raise RejectedError("engine.create.invalid", f"a {request.game} game id starts with '{request.game}-'")
        for name, values in (("players", request.players), ("bots", request.bots)):
            if values and len(values) != request.seats:
                raise RejectedError("engine.create.invalid", f"{name} must name one entry per seat ({request.seats})")
        unknown = {bot for bot in request.bots if bot is not None and bot not in rules.bots}
        if unknown:
            raise RejectedError("engine.create.invalid",
                                f"unknown bot {sorted(unknown)[0]!r}; bots are {', '.join(sorted(rules.bots))}")
        if request.turn_seconds is not None and not 1 <= request.turn_seconds <= 86_400:
            raise RejectedError("engine.create.invalid", "turn_seconds must be between 1 and 86400")
        async with self.locks.hold(request.game_id) as conn:
            return await self._open(request, rules, options, self.store.on(conn))

    async def _open(self, request: CreateGame, rules: Any, options: Any, store: EventStore) -> CommandResult:
        table = await self.table(request.game_id, store)
        if table.opened is not None:
            if request.command_id in table.accepted:
                return CommandResult(game_id=request.game_id, version=table.version, duplicate=True,
                                     commitment=table.opened.commitment, seeding=table.seeding)
            raise RejectedError("engine.create.exists", f"game {request.game_id} already exists")
        held = request.client_seed_seconds is not None
        if held:
            # The opening waits for client seeds: try it now on throwaway draws, so options the rules refuse are
            # refused here and not when the window closes.
            try:
                rules.new_game(options, request.seats, SeededDraws(random.Random(0)))
            except RuleViolation as error:
                raise RejectedError(error.code, error.message) from error
        committed = await self.rng.open_game(request.game_id, request.seats)
        opened = GameOpened(game=request.game, seats=request.seats, options=request.options,
                            players=request.players, bots=request.bots, turn_seconds=request.turn_seconds,
                            tournament_id=request.tournament_id, round=request.round, table=request.table,
                            commitment=committed.commitment, client_seed_seconds=request.client_seed_seconds)
        batch = [stored(opened, actor="engine", command_id=request.command_id,
                        event_id=uuid.uuid5(ID_SPACE, f"{request.game_id}:open:{request.command_id}"))]
        seeding = held and bool(seed_seats(request.players, request.bots))
        if not seeding:
            # No window, or nobody to wait for (bots and empty seats give no seeds): the opening comes at once.
            started = GameStarted(seeded_seats=(), deadline_passed=False) if held else None
            batch += await self._opening(request.game_id, rules, options, request.seats, request.command_id,
                                         started=started)
        try:
            result = await store.append(request.game_id, batch, ExpectedVersion.NO_STREAM)
        except ConcurrencyError as error:
            raise RejectedError("engine.create.exists", f"game {request.game_id} already exists") from error
        return CommandResult(game_id=request.game_id, version=result.last_version, duplicate=result.duplicate,
                             commitment=opened.commitment, seeding=seeding)

    async def _opening(self, game_id: str, rules: Any, options: Any, seats: int, command_id: str, *,
                       started: GameStarted | None, seeds: dict[int, str] | None = None) -> list[NewEvent]:
        """The rules' opening, on the game's first draws: ``[GameStarted]`` (after a seed window),
        ``DrawsUsed``, the opening events. The RNG gets the client seeds first: they go into every draw."""
        for seat, seed in sorted((seeds or {}).items()):
            await self.rng.add_client_seed(game_id, seat, seed)
        try:
            events, draws = await self._decided(game_id, 0, lambda d: rules.new_game(options, seats, d))
        except RuleViolation as error:
            raise RejectedError(error.code, error.message) from error
        batch = [] if started is None else [stored(started, actor="engine", command_id=command_id)]
        return batch + self._outcome(rules, draws, events, "engine", command_id, over=False)

    async def play(self, request: PlayCommand) -> CommandResult:
        async with self.locks.hold(request.game_id) as conn:
            store = self.store.on(conn)
            for _attempt in range(RETRIES):
                try:
                    return await self._play(request, store)
                except ConcurrencyError:
                    self.conflicts += 1
                    log.info("engine.conflict", game_id=request.game_id)
        raise RejectedError("engine.busy", f"game {request.game_id} changed too often meanwhile; try again")

    async def _play(self, request: PlayCommand, store: EventStore) -> CommandResult:
        table = await self.table(request.game_id, store)
        if table.opened is None or table.rules is None:
            raise RejectedError("engine.unknown-game", f"no game {request.game_id}")
        if (version := table.accepted.get(request.command_id)) is not None:
            return CommandResult(game_id=request.game_id, version=version, duplicate=True,
                                 ended=table.ended is not None)
        if table.ended is not None:
            raise RejectedError("engine.game-over", f"game {request.game_id} has ended")
        if not table.started:
            raise RejectedError("engine.seeding", f"game {request.game_id} waits for client seeds from seats "
                                f"{list(table.seeds_missing())} until {table.seeding_until}; no move before it starts")
        rules, game, state, version, nonce = table.rules, table.game, table.state, table.version, table.next_nonce
        try:
            command = command_decoder(game).decode(request.command)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise RejectedError("engine.command.invalid", f"not a {game} command: {error}") from error
        if request.player_id is not None and table.seat_of(request.player_id) != command.seat:
            raise RejectedError("engine.not-your-seat", f"seat {command.seat} is not yours to play")
        try:
            events, draws = await self._decided(request.game_id, nonce,
                                                partial(rules.decide, state, command))
        except RuleViolation as error:
            await self._record_rejection(request, error.code, error.message, store)
            raise RejectedError(error.code, error.message) from error
        for event in events:
            state = rules.evolve(state, event)
        accepted = CommandAccepted(seat=command.seat, command=msgspec.Raw(_encoder.encode(command)),
                                   by_bot=request.by_bot)
        batch = [stored(accepted, actor=request.actor, command_id=request.command_id,
                        visibility=(command.seat,),
                        event_id=uuid.uuid5(ID_SPACE, f"{request.game_id}:{request.command_id}"))]
        batch += self._outcome(rules, draws, events, request.actor, request.command_id,
                               over=rules.is_over(state), game=game, state=state)
        result = await store.append(request.game_id, batch, version)
        return CommandResult(game_id=request.game_id, version=result.last_version,
                             duplicate=result.duplicate, ended=rules.is_over(state))

    async def give_client_seed(self, request: GiveClientSeed) -> CommandResult:
        """Record a seated player's client seed; the last one missing starts the game at once."""
        async with self.locks.hold(request.game_id) as conn:
            store = self.store.on(conn)
            table = await self.table(request.game_id, store)
            if table.opened is None or table.rules is None:
                raise RejectedError("engine.unknown-game", f"no game {request.game_id}")
            seat = table.seat_of(request.player_id)
            if seat is None or seat not in table.seed_seats:
                raise RejectedError("engine.client-seed.not-seated",
                                    f"{request.player_id} holds no seat of {request.game_id} that gives a seed")
            given = table.client_seeds.get(seat)
            if given == request.client_seed:
                return CommandResult(game_id=request.game_id, version=table.accepted[self._seed_command(seat)],
                                     duplicate=True, seeding=table.seeding)
            if given is not None:
                raise RejectedError("engine.client-seed.already-given", f"seat {seat} has given its client seed")
            if not table.seeding:
                raise RejectedError("engine.client-seed.closed",
                                    f"game {request.game_id} has started: client seeds are taken only before")
            if not 1 <= len(request.client_seed.encode()) <= CLIENT_SEED_MAX_BYTES:
                raise RejectedError("engine.client-seed.length",
                                    f"a client seed is 1 to {CLIENT_SEED_MAX_BYTES} bytes of UTF-8")
            given_event = stored(ClientSeedGiven(seat=seat, client_seed=request.client_seed),
                                 actor=request.player_id, command_id=self._seed_command(seat))
            try:
                # Recorded on its own before the start: a start that fails (the RNG service busy) leaves the
                # seed in the stream, and whoever starts the game later mixes it in.
                result = await store.append(request.game_id, [given_event], table.version)
            except ConcurrencyError as error:
                raise RejectedError("engine.busy", f"game {request.game_id} changed meanwhile; try again") from error
            try:
                started = await self._start_if_due(request.game_id, store, datetime.now(UTC))
            except (RejectedError, ConcurrencyError) as error:
                log.warning("engine.start-deferred", game_id=request.game_id, reason=str(error))
                started = False  # the turn-timer watch starts it on its next look
            return CommandResult(game_id=request.game_id, version=result.last_version, seeding=not started)

    async def start_when_due(self, game_id: str, now: datetime) -> bool:
        """Start a game waiting for client seeds once all are in or its window's time ran out."""
        async with self.locks.hold(game_id) as conn:
            return await self._start_if_due(game_id, self.store.on(conn), now)

    async def _start_if_due(self, game_id: str, store: EventStore, now: datetime) -> bool:
        table = await self.table(game_id, store)
        if not table.start_due(now):
            return False
        if table.seeds_missing():
            # The window is timed by the database's clock, which stamps the events the audit compares.
            async with store.connection() as conn:
                if not table.start_due(await conn.fetchval("SELECT clock_timestamp()")):
                    return False
        opened = table.opened
        assert opened is not None and table.rules is not None
        started = GameStarted(seeded_seats=tuple(sorted(table.client_seeds)),
                              deadline_passed=bool(table.seeds_missing()))
        batch = await self._opening(game_id, table.rules, options_decoder(opened.game).decode(opened.options),
                                    opened.seats, f"start:{game_id}", started=started, seeds=table.client_seeds)
        await store.append(game_id, batch, table.version)
        log.info("engine.started", game_id=game_id, seeded_seats=started.seeded_seats,
                 deadline_passed=started.deadline_passed)
        return True

    @staticmethod
    def _seed_command(seat: int) -> str:
        return f"client-seed:{seat}"

    def _outcome(self, rules: Any, draws: list[NumberedDraw], events: list[Any], actor: str, command_id: str,
                 *, over: bool, game: str = "", state: Any = None) -> list[NewEvent]:
        batch = []
        if draws:
            batch.append(stored(DrawsUsed(draws=tuple(draws)), actor=actor, command_id=command_id,
                                visibility=NOBODY))
        batch += [stored(e, actor=actor, command_id=command_id, visibility=visibility_of(rules, e)) for e in events]
        if over:
            batch.append(stored(GameEnded(game=game, winners=tuple(rules.winners(state))), actor="engine",
                                command_id=command_id))
        return batch

    async def _decided(
        self, game_id: str, first_nonce: int, run: Callable[[Draws], list[Any]]
    ) -> tuple[list[Any], list[NumberedDraw]]:
        """Run the rules, fetching each draw they ask for from the RNG service, until they complete."""
        fetched: list[NumberedDraw] = []
        while True:
            try:
                return run(RecordedDraws([Draw(d.request, d.values) for d in fetched])), fetched
            except DrawsExhausted as need:
                fetched.append(await self.rng.draw(game_id, first_nonce + len(fetched), need.request))

    async def _record_rejection(self, request: PlayCommand, code: str, message: str, store: EventStore) -> None:
        log.info("engine.rejected", game_id=request.game_id, code=code, reason=message)
        async with store.connection() as conn:
            await conn.execute(
                "INSERT INTO rejected_commands (game_id, command, code, message, correlation_id, actor)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                request.game_id, bytes(request.command), code, message, current_correlation_id(), request.actor)

    def has_bot_seats(self, game_id: str) -> bool:
        """From the cache, with no database read: a game the engine has just played a command in is cached."""
        table = self._tables.get(game_id)
        return table is not None and table.opened is not None and any(table.opened.bots)

    async def opened(self, game_id: str, at_least: int | None = None) -> Table:
        table = await self.table(game_id, at_least=at_least)
        if table.opened is None or table.rules is None:
            raise RejectedError("engine.unknown-game", f"no game {game_id}")
        return table

    async def view(self, request: GetView) -> GameView:
        table = await self.opened(request.game_id, request.at_least_version)
        rules = table.rules
        assert rules is not None
        seat = table.seat_of(request.player_id) if request.player_id else None
        if not table.started:
            return GameView(game_id=request.game_id, game=table.game, version=table.version,
                            ended=table.ended is not None, seat=seat, pending_seats=table.seeds_missing(),
                            winners=(), view=msgspec.Raw(b"null"), commitment=table.opened.commitment,
                            seeding_until=table.seeding_until, seeded_seats=tuple(sorted(table.client_seeds)))
        return GameView(game_id=request.game_id, game=table.game, version=table.version,
                        ended=table.ended is not None, seat=seat,
                        pending_seats=tuple(sorted(rules.pending_seats(table.state))),
                        winners=tuple(rules.winners(table.state)),
                        view=msgspec.Raw(_encoder.encode(rules.view(table.state, seat))),
                        commitment=table.opened.commitment if table.opened else None,
                        seeded_seats=tuple(sorted(table.client_seeds)))

    async def legal(self, request: GetLegal) -> LegalCommands:
        table = await self.opened(request.game_id)
        rules = table.rules
        assert rules is not None
        seat = table.seat_of(request.player_id)
        commands = ([] if seat is None or table.ended or not table.started
                    else list(rules.legal_commands(table.state, seat)))
        return LegalCommands(game_id=request.game_id, seat=seat, version=table.version,
                             commands=msgspec.Raw(_encoder.encode(commands)))

