"""The RNG service's decisions: commit seeds, take client seeds, draw, reveal. Commitments, client seeds and the
reveal are events in ``rng-<game_id>``; the seed itself stays sealed in ``rng_seeds`` until the game has ended.

A draw writes nothing: it is a pure function of the seed, the client seeds, the game id, the nonce and the request
(``shared.fairness``), answered from memory. The engine records the draws it used in the game stream
(``engine.DrawsUsed``); that is the record the audit recomputes once the seed is revealed."""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeVar

import asyncpg
import msgspec

from services.rng.commit import NAMESPACE, commit_event_id, keep_seeds
from services.rng.ledger import Ledger
from services.rng.sealing import Sealer
from shared.bus.replies import RejectedError
from shared.eventstore import AppendResult, ConcurrencyError, EventStore, ExpectedVersion, NewEvent, RecordedEvent
from shared.fairness import CLIENT_SEED_MAX_BYTES, RECIPE_VERSION, check_request, commitment, draw
from shared.fairness.engine_auth import MAX_AGE_SECONDS, check
from shared.fairness.stream import MAX_NONCE, Keyed
from shared.games.draws import DiceRequest, RangeRequest, ShuffleRequest
from shared.logging import correlation, get_logger
from shared.messages.engine import DrawsUsed
from shared.messages.registry import message_name
from shared.messages.rng import (
    AddClientSeed,
    BlocksAhead,
    BlocksAnswer,
    BlocksAnswers,
    ClientSeedAdded,
    Commitment,
    Commitments,
    CreateSeed,
    CreateSeeds,
    DrawAnswer,
    DrawAnswers,
    DrawNumbers,
    GameSeats,
    NumberedDraw,
    SeedCommitted,
    SeedRevealed,
    WantedBlocks,
    WantedDraw,
    blocks_signed,
    create_many_signed,
    draws_signed,
    rng_stream,
)
from shared.messages.stored import stored

log = get_logger(__name__)
MAX_DICE = 1000
MAX_SHUFFLE = 10_000
MAX_RANGE = 2**64
MAX_SEATS = 16
MAX_GAMES_PER_CREATE = 1000
MAX_BLOCKS_AHEAD = 64
"""Draws of one game whose first blocks one request may ask for."""
CACHE_GAMES = 10_000
DRAWS_USED = message_name(DrawsUsed)
V = TypeVar("V")


class GameOver(msgspec.Struct, frozen=True, kw_only=True):
    """A game whose own stream shows it over: what its seed's reveal names (the stream's last event, the end)."""

    game_id: str
    game_version: int
    game_hash: str
    causation_id: str
    correlation_id: str


def _event(obj: msgspec.Struct, event_id: uuid.UUID | None = None, *, causation_id: str | None = None) -> NewEvent:
    return stored(obj, actor="rng", event_id=event_id, causation_id=causation_id)


def check_size(request: DiceRequest | RangeRequest | ShuffleRequest) -> None:
    try:
        check_request(request)
    except ValueError as error:
        raise RejectedError("rng.request.invalid", str(error)) from error
    match request:
        case DiceRequest(count=count) if count > MAX_DICE:
            raise RejectedError("rng.request.too-large", f"at most {MAX_DICE} dice in one draw")
        case ShuffleRequest(n=n) if n > MAX_SHUFFLE:
            raise RejectedError("rng.request.too-large", f"at most {MAX_SHUFFLE} items in one shuffle")
        case RangeRequest(low=low, high=high) if high - low >= MAX_RANGE:
            raise RejectedError("rng.request.too-large", "a range may span at most 2^64 values")


def _commitment(game_id: str, seed: bytes) -> Commitment:
    return Commitment(game_id=game_id, commitment=commitment(seed), recipe_version=RECIPE_VERSION)


class Dealer:
    def __init__(self, store: EventStore, pool: asyncpg.Pool, sealer: Sealer, engine_key: bytes) -> None:
        self.store = store
        self.pool = pool
        self.sealer = sealer
        self.engine_key = engine_key
        self._ledgers: OrderedDict[str, Ledger] = OrderedDict()
        self._seeds: OrderedDict[str, bytes] = OrderedDict()

    async def ledger(self, game_id: str) -> Ledger:
        """The game's RNG stream folded, brought up to date with one read."""
        cached = self._ledgers.get(game_id)
        return self._folded(game_id, await self.store.read_stream(rng_stream(game_id),
                                                                  (cached.version if cached else 0) + 1))

    def _folded(self, game_id: str, events: list[RecordedEvent]) -> Ledger:
        """The game's cached ledger (or a new one) with the events of its RNG stream it has not seen yet."""
        ledger = self._ledgers.pop(game_id, None) or Ledger()
        ledger.fold([event for event in events if event.version > ledger.version])
        self._keep(self._ledgers, game_id, ledger)
        return ledger

    def _cached_ledger(self, game_id: str) -> Ledger | None:
        ledger = self._ledgers.get(game_id)
        if ledger is not None:
            self._ledgers.move_to_end(game_id)
        return ledger

    @staticmethod
    def _keep(cache: OrderedDict[str, V], game_id: str, value: V) -> None:
        cache[game_id] = value
        cache.move_to_end(game_id)
        if len(cache) > CACHE_GAMES:
            cache.popitem(last=False)

    async def create(self, request: CreateSeed) -> Commitment:
        if not check(self.engine_key, request.auth, "create", request.game_id, request.seats):
            raise RejectedError("rng.forbidden", "only the game engine may open a game's seed")
        [committed] = await self._commit((GameSeats(game_id=request.game_id, seats=request.seats),))
        return committed

    async def create_many(self, request: CreateSeeds) -> Commitments:
        if not check(self.engine_key, request.auth, *create_many_signed(request.games)):
            raise RejectedError("rng.forbidden", "only the game engine may open a game's seed")
        if not 1 <= len(request.games) <= MAX_GAMES_PER_CREATE:
            raise RejectedError("rng.create.batch", f"1 to {MAX_GAMES_PER_CREATE} games in one request")
        if len({game.game_id for game in request.games}) != len(request.games):
            raise RejectedError("rng.create.batch", "each game at most once in one request")
        return Commitments(commitments=tuple(await self._commit(request.games)))

    async def _commit(self, games: Sequence[GameSeats]) -> list[Commitment]:
        for game in games:
            if not 1 <= game.seats <= MAX_SEATS:
                raise RejectedError("rng.seats", f"a game has 1 to {MAX_SEATS} seats ({game.game_id})")
        seeds = await keep_seeds(self.pool, self.sealer, [game.game_id for game in games])
        committed = [SeedCommitted(game_id=game.game_id, commitment=commitment(seeds[game.game_id]),
                                   recipe_version=RECIPE_VERSION, seats=game.seats) for game in games]
        results = await self._append_each(
            [(rng_stream(event.game_id), [_event(event, commit_event_id(event.game_id))]) for event in committed])
        for event, result in zip(committed, results, strict=True):
            self._keep(self._seeds, event.game_id, seeds[event.game_id])
            if result.last_version == 1 and not result.duplicate:
                self._keep(self._ledgers, event.game_id, Ledger(version=1, commitment=event))
        return [_commitment(game.game_id, seeds[game.game_id]) for game in games]

    async def _append_each(self, items: list[tuple[str, list[NewEvent]]]) -> list[AppendResult]:
        """Each stream's events, appended whatever the stream holds (idempotent by event id), all in one call."""
        results = []
        outcomes = await self.store.append_many([(stream, events, ExpectedVersion.ANY) for stream, events in items])
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                raise outcome
            results.append(outcome)
        return results

    async def add_client_seed(self, request: AddClientSeed) -> Commitment:
        if not check(self.engine_key, request.auth, "client_seed", request.game_id, request.seat,
                     request.client_seed):
            raise RejectedError("rng.forbidden", "client seeds come through the game engine, which checks the seat")
        ledger = await self.ledger(request.game_id)
        if ledger.commitment is None:
            raise RejectedError("rng.unknown-game", f"no seed is committed for {request.game_id}")
        answer = Commitment(game_id=request.game_id, commitment=ledger.commitment.commitment,
                            recipe_version=ledger.commitment.recipe_version)
        given = ledger.client_seeds.get(request.seat)
        if given == request.client_seed:
            return answer
        if ledger.drawn or ledger.revealed or await self._draws_used(request.game_id):
            raise RejectedError("rng.client-seed.too-late", "client seeds are taken only before the first draw")
        if not 0 <= request.seat < ledger.commitment.seats:
            raise RejectedError("rng.client-seed.seat", f"seat must be 0..{ledger.commitment.seats - 1}")
        if given is not None:
            raise RejectedError("rng.client-seed.already-set", f"seat {request.seat} has given its client seed")
        if not 1 <= len(request.client_seed.encode()) <= CLIENT_SEED_MAX_BYTES:
            raise RejectedError("rng.client-seed.length", f"a client seed is 1 to {CLIENT_SEED_MAX_BYTES} bytes")
        try:
            result = await self.store.append(
                rng_stream(request.game_id),
                [_event(ClientSeedAdded(seat=request.seat, client_seed=request.client_seed))], ledger.version)
        except ConcurrencyError:
            return await self.add_client_seed(request)
        if result.last_version == ledger.version + 1:  # what was appended is known: no read before the next draw
            ledger.client_seeds[request.seat] = request.client_seed
            ledger.version = result.last_version
        return answer

    async def _draws_used(self, game_id: str) -> bool:
        """Whether the game's own stream records a draw: a draw another replica answered is known here this way
        once the engine has recorded it. (Client seeds come before the opening, so this stream is short then.)"""
        return any(event.type == DRAWS_USED for event in await self.store.read_stream(game_id))

    async def draw(self, request: DrawNumbers) -> DrawAnswers:
        """From memory: no write, and no read once a game's seed and client seeds are known here. Each draw is
        answered or refused on its own; a request the engine did not sign, or too old, is refused as a whole."""
        if not check(self.engine_key, request.auth, *draws_signed(request.draws, request.issued_at)):
            raise RejectedError("rng.forbidden", "only the game engine may ask for draws")
        if abs(time.time() - request.issued_at) > MAX_AGE_SECONDS:
            raise RejectedError("rng.stale-request", "the draw request is too old to be answered")
        answers = []
        for wanted in request.draws:
            try:
                answers.append(DrawAnswer(draw=await self._draw(wanted)))
            except RejectedError as refused:
                log.info("rng.draw.refused", game_id=wanted.game_id, nonce=wanted.nonce, code=refused.code,
                         correlation_id=wanted.correlation_id)
                answers.append(DrawAnswer(code=refused.code, message=refused.message))
        return DrawAnswers(answers=tuple(answers))

    async def blocks(self, request: BlocksAhead) -> BlocksAnswers:
        """Block 0 of coming draws' streams, from memory like a draw; each game answered or refused on its own."""
        if not check(self.engine_key, request.auth, *blocks_signed(request.wanted, request.issued_at)):
            raise RejectedError("rng.forbidden", "only the game engine may ask for draws")
        if abs(time.time() - request.issued_at) > MAX_AGE_SECONDS:
            raise RejectedError("rng.stale-request", "the request is too old to be answered")
        answers = []
        for wanted in request.wanted:
            try:
                answers.append(BlocksAnswer(blocks=await self._blocks(wanted)))
            except RejectedError as refused:
                log.info("rng.blocks.refused", game_id=wanted.game_id, first_nonce=wanted.first_nonce,
                         code=refused.code)
                answers.append(BlocksAnswer(code=refused.code, message=refused.message))
        return BlocksAnswers(answers=tuple(answers))

    async def _blocks(self, wanted: WantedBlocks) -> bytes:
        if not 1 <= wanted.count <= MAX_BLOCKS_AHEAD:
            raise RejectedError("rng.request.too-large", f"1 to {MAX_BLOCKS_AHEAD} draws' blocks at once")
        if not 0 <= wanted.first_nonce <= MAX_NONCE - wanted.count:
            raise RejectedError("rng.request.invalid", "nonces are 0..2**64-1")
        ledger = await self._ledger_for(wanted)
        if ledger.revealed:
            raise RejectedError("rng.game-ended", "the game has ended; its seed is revealed")
        keyed = Keyed(await self._seed(wanted.game_id), wanted.game_id, ledger.seeds_in_seat_order())
        ledger.drawn = True
        return keyed.first_blocks(wanted.first_nonce, wanted.count)

    async def _draw(self, wanted: WantedDraw) -> NumberedDraw:
        check_size(wanted.request)
        ledger = await self._ledger_for(wanted)
        if ledger.revealed:
            raise RejectedError("rng.game-ended", "the game has ended; its seed is revealed")
        seed = await self._seed(wanted.game_id)
        values = draw(seed, wanted.game_id, ledger.seeds_in_seat_order(), wanted.nonce, wanted.request)
        ledger.drawn = True
        return NumberedDraw(nonce=wanted.nonce, request=wanted.request, values=values)

    async def _ledger_for(self, request: WantedDraw | WantedBlocks) -> Ledger:
        """The cached ledger once this process has drawn for the game and while it holds the client seeds the engine
        states; else the stream read once more. A replica may have cached a game before another one took its client
        seeds, and a stale copy could agree with a wrong statement: the first draw here always reads."""
        stated = request.client_seeds
        ledger = self._cached_ledger(request.game_id)
        if ledger is None or stated is None or not ledger.drawn or not self._answers(ledger, stated):
            ledger = await self.ledger(request.game_id)
        if ledger.commitment is None:
            raise RejectedError("rng.unknown-game", f"no seed is committed for {request.game_id}")
        if stated is not None and not self._answers(ledger, stated):
            raise RejectedError("rng.client-seeds", f"the RNG holds {len(ledger.client_seeds)} client seeds for "
                                f"{request.game_id}, not the {len(stated)} the engine names")
        return ledger

    @staticmethod
    def _answers(ledger: Ledger, client_seeds: tuple[str, ...]) -> bool:
        return ledger.commitment is not None and ledger.seeds_in_seat_order() == client_seeds

    async def reveal(self, ends: Sequence[GameOver]) -> list[str]:
        """Publish the seeds of games whose own streams show them over (see ``services.rng.revealer``), in one read
        of their RNG streams and one append; each reveal carries its end's correlation id and cause. Returns the
        games revealed now (not those revealed before)."""
        firsts: dict[str, GameOver] = {}
        for end in ends:
            firsts.setdefault(end.game_id, end)  # a game's end read twice (another revealer's page) reveals it once
        streams = await self.store.read_streams([rng_stream(game_id) for game_id in firsts])
        due: list[tuple[GameOver, Ledger, NewEvent]] = []
        for end in firsts.values():
            ledger = self._folded(end.game_id, streams[rng_stream(end.game_id)])
            if ledger.commitment is None or ledger.revealed:
                continue
            seed = await self._seed(end.game_id)
            with correlation(end.correlation_id, game_id=end.game_id):
                revealed = _event(SeedRevealed(server_seed=seed.hex(), game_version=end.game_version,
                                               game_hash=end.game_hash),
                                  uuid.uuid5(NAMESPACE, f"reveal:{end.game_id}"), causation_id=end.causation_id)
            due.append((end, ledger, revealed))
        if not due:
            return []
        await self._append_each([(rng_stream(end.game_id), [event]) for end, _, event in due])
        for end, ledger, _ in due:
            ledger.revealed = True
            self._seeds.pop(end.game_id, None)
            with correlation(end.correlation_id, game_id=end.game_id):
                log.info("rng.revealed")
        return [end.game_id for end, *_ in due]

    async def _seed(self, game_id: str) -> bytes:
        """The opened seed, kept in this process's memory while its game runs (it never leaves the process)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            async with self.pool.acquire() as conn:
                sealed = await conn.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", game_id)
            if sealed is None:
                raise RejectedError("rng.unknown-game", f"no seed is kept for {game_id}")
            seed = self.sealer.open(game_id, sealed)
        self._keep(self._seeds, game_id, seed)
        return seed
