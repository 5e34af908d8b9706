"""The engine's decisions on the games it owns: fold (in memory) -> draws -> decide -> append(expected version).

Every request for a game is handled by the replica owning the game's partition (``services.engine.partitions``),
one command of a game at a time (``services.engine.games``). A command reads nothing from the log unless its
game is not in memory yet, and its reply carries the actor's new view."""

from __future__ import annotations

import random
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

import asyncpg
import msgspec

from services.engine.draws_ahead import DrawsAhead
from services.engine.games import Games
from services.engine.rejections import RejectionLog
from services.engine.rng_client import RngClient
from shared.bus.replies import RejectedError
from shared.eventstore import ConcurrencyError, ExpectedVersion
from shared.eventstore.errors import InvalidStreamId
from shared.eventstore.types import check_stream_id
from shared.fairness import CLIENT_SEED_MAX_BYTES
from shared.games.draws import Draw, DrawRequest, Draws, DrawsExhausted, RecordedDraws, SeededDraws
from shared.games.rules import AnyRules, RuleViolation
from shared.logging import current_correlation_id, get_logger
from shared.messages.engine import (
    NULL,
    ClientSeedGiven,
    CommandAccepted,
    CommandResult,
    CreateGame,
    GameChanged,
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
from shared.messages.games import UnknownGame, command_decoder, options_decoder, requested_options, rules_of
from shared.messages.rng import NumberedDraw
from shared.play import layout
from shared.play.layout import Entry
from shared.play.table import Table, seed_seats
from shared.refusals import Refusal

log = get_logger(__name__)
RETRIES = 8
ID_SPACE = uuid.UUID("0e1c3f8a-2b7d-4e4f-9a51-3c2d1b0f6e77")
_encoder = msgspec.json.Encoder()
Publish = Callable[[GameChanged], Awaitable[None]]


async def _nobody_listens(_change: GameChanged) -> None:
    return None


def seeds_in_seat_order(seeds: dict[int, str]) -> tuple[str, ...]:
    """What the RNG mixes into every draw of the game: the client seeds, by seat."""
    return tuple(seed for _seat, seed in sorted(seeds.items()))


def view_of(table: Table, seat: int | None) -> GameView:
    """What ``seat`` (None: a spectator) sees of the game now, with the seat's legal moves."""
    rules, opened = table.rules, table.opened
    assert rules is not None and opened is not None
    seeded = tuple(sorted(table.client_seeds))
    if not table.started:
        return GameView(game_id=table.game_id, game=opened.game, version=table.version,
                        ended=table.ended is not None, seat=seat, pending_seats=table.seeds_missing(), winners=(),
                        view=NULL, commitment=opened.commitment, seeding_until=table.seeding_until,
                        seeded_seats=seeded)
    legal = NULL
    if seat is not None:
        moves = [] if table.ended else list(rules.legal_commands(table.state, seat))
        legal = msgspec.Raw(_encoder.encode(moves))
    return GameView(game_id=table.game_id, game=opened.game, version=table.version, ended=table.ended is not None,
                    seat=seat, pending_seats=tuple(sorted(rules.pending_seats(table.state))),
                    winners=tuple(rules.winners(table.state)),
                    view=msgspec.Raw(_encoder.encode(rules.view(table.state, seat))), commitment=opened.commitment,
                    seeded_seats=seeded, legal=legal)


def change_of(table: Table, known: GameView | None = None) -> GameChanged:
    """Every seat's view and a spectator's; ``known`` is one already made at this version."""
    assert table.opened is not None
    views = [known if known is not None and known.seat == seat and known.version == table.version
             else view_of(table, seat) for seat in range(table.opened.seats)]
    return GameChanged(game_id=table.game_id, version=table.version, views=(*views, view_of(table, None)))


class Engine:
    def __init__(self, games: Games, pool: asyncpg.Pool, rng: RngClient, publish: Publish = _nobody_listens,
                 reconnects: Callable[[], int] = lambda: 0) -> None:
        self.games = games
        self.pool = pool
        self.rng = rng
        self.rejections = RejectionLog(pool)
        self.ahead = DrawsAhead(rng)
        self.publish = publish
        self.reconnects = reconnects
        """How often this replica's NATS connection was made again: a gateway's notice that a game is watched may
        have gone out meanwhile, unheard."""
        self._reconnects_seen = 0

    async def _changed(self, table: Table, known: GameView | None = None) -> None:
        if table.opened is None:
            return
        if table.ended is not None:
            self.ahead.forget(table.game_id)
        elif table.started:
            self.ahead.look_ahead(table.game_id, table.next_nonce, seeds_in_seat_order(table.client_seeds))
        await self.announce(table, known)

    async def announce(self, table: Table, known: GameView | None = None) -> None:
        """Every seat's new view, published once, for the WebSockets watching the game: none when nobody asked to
        see it (``Games.watched``), as with bots and players who poll ``/legal``."""
        if (reconnects := self.reconnects()) != self._reconnects_seen:
            self._reconnects_seen = reconnects
            self.games.forget_unwatched()
        if self.games.watched(table.game_id):
            await self.publish(change_of(table, known))

    async def create(self, request: CreateGame) -> CommandResult:
        try:
            check_stream_id(request.game_id)
            rules = rules_of(request.game)
        except (InvalidStreamId, UnknownGame) as error:
            raise RejectedError(Refusal.ENGINE_CREATE_INVALID, str(error)) from error
        options = requested_options(request.game, request.options, Refusal.ENGINE_CREATE_INVALID,
                                    Refusal.ENGINE_CREATE_OPTIONS)
        if not request.game_id.startswith(f"{request.game}-"):
            raise RejectedError(Refusal.ENGINE_CREATE_INVALID,
                                f"a {request.game} game id starts with '{request.game}-'")
        for name, values in (("players", request.players), ("bots", request.bots)):
            if values and len(values) != request.seats:
                raise RejectedError(Refusal.ENGINE_CREATE_INVALID,
                                    f"{name} must name one entry per seat ({request.seats})")
        unknown = {bot for bot in request.bots if bot is not None and bot not in rules.bots}
        if unknown:
            raise RejectedError(Refusal.ENGINE_CREATE_INVALID,
                                f"unknown bot {sorted(unknown)[0]!r}; bots are {', '.join(sorted(rules.bots))}")
        if request.turn_seconds is not None and not 1 <= request.turn_seconds <= 86_400:
            raise RejectedError(Refusal.ENGINE_CREATE_INVALID, "turn_seconds must be between 1 and 86400")
        async with self.games.hold(request.game_id) as table:
            result = await self._open(request, rules, options, table)
        if not result.duplicate:
            await self._changed(await self.games.table(request.game_id))
        return result

    async def _open(self, request: CreateGame, rules: AnyRules, options: Any, table: Table) -> CommandResult:
        if table.opened is not None:
            if request.command_id in table.accepted:
                return CommandResult(game_id=request.game_id, version=table.version, duplicate=True,
                                     commitment=table.opened.commitment, seeding=table.seeding)
            raise RejectedError(Refusal.ENGINE_CREATE_EXISTS, f"game {request.game_id} already exists")
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
        batch = [layout.entry(opened, actor=layout.ENGINE, command_id=request.command_id,
                              event_id=uuid.uuid5(ID_SPACE, f"{request.game_id}:open:{request.command_id}"))]
        seeding = held and bool(seed_seats(request.players, request.bots))
        if not seeding:
            # No window, or nobody to wait for (bots and empty seats give no seeds): the opening comes at once.
            started = GameStarted(seeded_seats=(), deadline_passed=False) if held else None
            batch += await self._opening(request.game_id, rules, options, request.seats, request.command_id,
                                         started=started)
        try:
            result = await self.games.append(table, batch, ExpectedVersion.NO_STREAM)
        except ConcurrencyError as error:
            raise RejectedError(Refusal.ENGINE_CREATE_EXISTS, f"game {request.game_id} already exists") from error
        return CommandResult(game_id=request.game_id, version=result.last_version, duplicate=result.duplicate,
                             commitment=opened.commitment, seeding=seeding)

    async def _opening(self, game_id: str, rules: AnyRules, options: Any, seats: int, command_id: str, *,
                       started: GameStarted | None, seeds: dict[int, str] | None = None) -> list[Entry]:
        """The rules' opening, on the game's first draws: ``[GameStarted]`` (after a seed window),
        ``DrawsUsed``, the opening events. The RNG gets the client seeds first: they go into every draw."""
        for seat, seed in sorted((seeds or {}).items()):
            await self.rng.add_client_seed(game_id, seat, seed)
        try:
            events, draws = await self._decided(game_id, 0, seeds_in_seat_order(seeds or {}),
                                                lambda d: rules.new_game(options, seats, d))
        except RuleViolation as error:
            raise RejectedError(error.code, error.message) from error
        batch = [] if started is None else [layout.entry(started, actor=layout.ENGINE, command_id=command_id)]
        return batch + layout.outcome(rules, draws, events, actor=layout.ENGINE, command_id=command_id)

    async def play(self, request: PlayCommand) -> CommandResult:
        for _attempt in range(RETRIES):
            async with self.games.hold(request.game_id) as table:
                try:
                    result = await self._play(request, table)
                except ConcurrencyError:
                    log.info("engine.conflict", game_id=request.game_id)
                    continue
            if not result.duplicate:
                await self._changed(table, result.view)
            return result
        raise RejectedError(Refusal.ENGINE_BUSY, f"game {request.game_id} changed too often meanwhile; try again")

    async def _play(self, request: PlayCommand, table: Table) -> CommandResult:
        if table.opened is None or table.rules is None:
            raise RejectedError(Refusal.ENGINE_UNKNOWN_GAME, f"no game {request.game_id}")
        player_seat = table.seat_of(request.player_id)
        if (version := table.accepted.get(request.command_id)) is not None:
            return CommandResult(game_id=request.game_id, version=version, duplicate=True,
                                 ended=table.ended is not None,
                                 view=None if player_seat is None else view_of(table, player_seat))
        if table.ended is not None:
            raise RejectedError(Refusal.ENGINE_GAME_OVER, f"game {request.game_id} has ended")
        if not table.started:
            raise RejectedError(Refusal.ENGINE_SEEDING, f"game {request.game_id} waits for client seeds from seats "
                                f"{list(table.seeds_missing())} until {table.seeding_until}; no move before it starts")
        rules, game, state, version, nonce = table.rules, table.game, table.state, table.version, table.next_nonce
        try:
            command = command_decoder(game).decode(request.command)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise RejectedError(Refusal.ENGINE_COMMAND_INVALID, f"not a {game} command: {error}") from error
        if request.player_id is not None and player_seat != command.seat:
            raise RejectedError(Refusal.ENGINE_NOT_YOUR_SEAT, f"seat {command.seat} is not yours to play")
        try:
            events, draws = await self._decided(request.game_id, nonce, seeds_in_seat_order(table.client_seeds),
                                                partial(rules.decide, state, command))
        except RuleViolation as error:
            self._record_rejection(request, error.code, error.message)
            raise RejectedError(error.code, error.message) from error
        for event in events:
            state = rules.evolve(state, event)
        over = rules.is_over(state)
        head = CommandAccepted(seat=command.seat, command=msgspec.Raw(_encoder.encode(command)), by_bot=request.by_bot)
        batch = [layout.accepted(head, actor=request.actor, command_id=request.command_id,
                                 event_id=uuid.uuid5(ID_SPACE, f"{request.game_id}:{request.command_id}"))]
        batch += layout.outcome(rules, draws, events, actor=request.actor, command_id=request.command_id,
                                ended=GameEnded(game=game, winners=tuple(rules.winners(state))) if over else None)
        result = await self.games.append(table, batch, version, state=state)
        if result.duplicate:  # stored before, by a request this replica did not see: read the game again
            table = await self.games.table(request.game_id)
        return CommandResult(game_id=request.game_id, version=result.last_version, duplicate=result.duplicate,
                             ended=bool(over), view=None if player_seat is None else view_of(table, player_seat))

    async def give_client_seed(self, request: GiveClientSeed) -> CommandResult:
        """Record a seated player's client seed; the last one missing starts the game at once."""
        async with self.games.hold(request.game_id) as table:
            if table.opened is None or table.rules is None:
                raise RejectedError(Refusal.ENGINE_UNKNOWN_GAME, f"no game {request.game_id}")
            seat = table.seat_of(request.player_id)
            if seat is None or seat not in table.seed_seats:
                raise RejectedError(Refusal.ENGINE_CLIENT_SEED_NOT_SEATED,
                                    f"{request.player_id} holds no seat of {request.game_id} that gives a seed")
            given = table.client_seeds.get(seat)
            if given == request.client_seed:
                return CommandResult(game_id=request.game_id, version=table.accepted[self._seed_command(seat)],
                                     duplicate=True, seeding=table.seeding)
            if given is not None:
                raise RejectedError(Refusal.ENGINE_CLIENT_SEED_ALREADY_GIVEN, f"seat {seat} has given its client seed")
            if not table.seeding:
                raise RejectedError(Refusal.ENGINE_CLIENT_SEED_CLOSED,
                                    f"game {request.game_id} has started: client seeds are taken only before")
            if not 1 <= len(request.client_seed.encode()) <= CLIENT_SEED_MAX_BYTES:
                raise RejectedError(Refusal.ENGINE_CLIENT_SEED_LENGTH,
                                    f"a client seed is 1 to {CLIENT_SEED_MAX_BYTES} bytes of UTF-8")
            given_event = layout.entry(ClientSeedGiven(seat=seat, client_seed=request.client_seed),
                                       actor=request.player_id, command_id=self._seed_command(seat))
            try:
                # Recorded on its own before the start: a start that fails (the RNG service busy) leaves the
                # seed in the stream, and whoever starts the game later mixes it in.
                result = await self.games.append(table, [given_event], table.version)
            except ConcurrencyError as error:
                raise RejectedError(Refusal.ENGINE_BUSY,
                                    f"game {request.game_id} changed meanwhile; try again") from error
            try:
                started = await self._start_if_due(table, datetime.now(UTC))
            except (RejectedError, ConcurrencyError) as error:
                log.warning("engine.start-deferred", game_id=request.game_id, reason=str(error))
                started = False  # the turn-timer watch starts it on its next look
        await self._changed(await self.games.table(request.game_id))
        return CommandResult(game_id=request.game_id, version=result.last_version, seeding=not started)

    async def start_when_due(self, game_id: str, now: datetime) -> bool:
        """Start a game waiting for client seeds once all are in or its window's time ran out."""
        async with self.games.hold(game_id) as table:
            started = await self._start_if_due(table, now)
        if started:
            await self._changed(await self.games.table(game_id))
        return started

    async def _start_if_due(self, table: Table, now: datetime) -> bool:
        if not table.start_due(now):
            return False
        if table.seeds_missing():
            # The window is timed by the database's clock, which stamps the events the audit compares.
            async with self.pool.acquire() as conn:
                if not table.start_due(await conn.fetchval("SELECT clock_timestamp()")):
                    return False
        opened = table.opened
        assert opened is not None and table.rules is not None
        started = GameStarted(seeded_seats=tuple(sorted(table.client_seeds)),
                              deadline_passed=bool(table.seeds_missing()))
        batch = await self._opening(table.game_id, table.rules, options_decoder(opened.game).decode(opened.options),
                                    opened.seats, f"start:{table.game_id}", started=started, seeds=table.client_seeds)
        await self.games.append(table, batch, table.version)
        log.info("engine.started", game_id=table.game_id, seeded_seats=started.seeded_seats,
                 deadline_passed=started.deadline_passed)
        return True

    @staticmethod
    def _seed_command(seat: int) -> str:
        return f"client-seed:{seat}"

    async def _decided(
        self, game_id: str, first_nonce: int, client_seeds: tuple[str, ...], run: Callable[[Draws], list[Any]]
    ) -> tuple[list[Any], list[NumberedDraw]]:
        """Run the rules, taking each draw they ask for from the blocks at hand (in the same run) or from the RNG
        service (then the rules run again with it), until they complete."""
        fetched: list[NumberedDraw] = []

        def at_hand(request: DrawRequest) -> tuple[int, ...] | None:
            drawn = self.ahead.take(game_id, first_nonce + len(fetched), request, client_seeds)
            if drawn is None:
                return None
            fetched.append(drawn)
            return drawn.values

        while True:
            try:
                return run(RecordedDraws([Draw(d.request, d.values) for d in fetched], more=at_hand)), fetched
            except DrawsExhausted as need:
                fetched.append(await self.rng.draw(game_id, first_nonce + len(fetched), need.request,
                                                   client_seeds=client_seeds))

    def _record_rejection(self, request: PlayCommand, code: str, message: str) -> None:
        log.info("engine.rejected", game_id=request.game_id, code=code, reason=message)
        self.rejections.record(request.game_id, bytes(request.command), code, message, current_correlation_id(),
                               request.actor)

    def has_bot_seats(self, game_id: str) -> bool:
        """From memory, with no database read: a game the engine has just played a command in is there."""
        table = self.games.cached(game_id)
        return table is not None and table.opened is not None and any(table.opened.bots)

    async def opened(self, game_id: str, at_least: int | None = None) -> Table:
        table = await self.games.table(game_id)
        if at_least is not None and table.version < at_least:
            table = await self.games.catch_up(game_id)
        if table.opened is None or table.rules is None:
            raise RejectedError(Refusal.ENGINE_UNKNOWN_GAME, f"no game {game_id}")
        return table

    async def view(self, request: GetView) -> GameView:
        self.games.watch(request.game_id)  # any view counts: a WebSocket asks one before it waits for changes
        table = await self.opened(request.game_id, request.at_least_version)
        return view_of(table, table.seat_of(request.player_id) if request.player_id else None)

    async def legal(self, request: GetLegal) -> LegalCommands:
        table = await self.opened(request.game_id)
        rules = table.rules
        assert rules is not None
        seat = table.seat_of(request.player_id)
        commands = ([] if seat is None or table.ended or not table.started
                    else list(rules.legal_commands(table.state, seat)))
        return LegalCommands(game_id=request.game_id, seat=seat, version=table.version,
                             commands=msgspec.Raw(_encoder.encode(commands)))
