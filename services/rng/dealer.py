"""The RNG service's decisions: commit a seed, take client seeds, draw, reveal. Everything it does is an event
in ``rng-<game_id>``; the seed itself stays sealed in ``rng_seeds`` until the game has ended."""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict

import asyncpg
import msgspec

from services.rng.ledger import Ledger
from services.rng.sealing import Sealer
from shared.bus.replies import RejectedError
from shared.eventstore import ConcurrencyError, EventStore, ExpectedVersion, NewEvent
from shared.fairness import CLIENT_SEED_MAX_BYTES, RECIPE_VERSION, check_request, commitment, draw, new_server_seed
from shared.fairness.engine_auth import MAX_AGE_SECONDS, check
from shared.games.draws import DiceRequest, RangeRequest, ShuffleRequest
from shared.logging import get_logger
from shared.messages.rng import (
    AddClientSeed,
    ClientSeedAdded,
    Commitment,
    CreateSeed,
    Drawn,
    DrawNumbers,
    NumberedDraw,
    SeedCommitted,
    SeedRevealed,
    rng_stream,
)
from shared.messages.stored import stored
from shared.play.visibility import NOBODY

log = get_logger(__name__)
MAX_DICE = 1000
MAX_SHUFFLE = 10_000
MAX_RANGE = 2**64
CACHE_GAMES = 10_000
NAMESPACE = uuid.UUID("5f0c1d9e-3b0a-4c55-9d55-6a1f2c7d8e90")


def _event(obj: msgspec.Struct, event_id: uuid.UUID | None = None, *, causation_id: str | None = None,
           visibility: tuple[int, ...] | None = None) -> NewEvent:
    return stored(obj, actor="rng", event_id=event_id, causation_id=causation_id, visibility=visibility)


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


class Dealer:
    def __init__(self, store: EventStore, pool: asyncpg.Pool, sealer: Sealer, engine_key: bytes) -> None:
        self.store = store
        self.pool = pool
        self.sealer = sealer
        self.engine_key = engine_key
        self._ledgers: OrderedDict[str, Ledger] = OrderedDict()
        self._seeds: OrderedDict[str, bytes] = OrderedDict()

    async def ledger(self, game_id: str) -> Ledger:
        ledger = self._ledgers.pop(game_id, None) or Ledger()
        ledger.fold(await self.store.read_stream(rng_stream(game_id), ledger.version + 1))
        self._ledgers[game_id] = ledger
        if len(self._ledgers) > CACHE_GAMES:
            self._ledgers.popitem(last=False)
        return ledger

    async def create(self, request: CreateSeed) -> Commitment:
        if not check(self.engine_key, request.auth, "create", request.game_id, request.seats):
            raise RejectedError("rng.forbidden", "only the game engine may open a game's seed")
        if not 1 <= request.seats <= 16:
            raise RejectedError("rng.seats", "a game has 1 to 16 seats")
        seed = new_server_seed()
        async with self.pool.acquire() as conn:
            await conn.execute("INSERT INTO rng_seeds (game_id, sealed) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                               request.game_id, self.sealer.seal(request.game_id, seed))
            sealed = await conn.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", request.game_id)
        seed = self.sealer.open(request.game_id, sealed)
        committed = SeedCommitted(game_id=request.game_id, commitment=commitment(seed),
                                  recipe_version=RECIPE_VERSION, seats=request.seats)
        # The commitment's event id follows from the game id: a repeated create stores nothing new.
        await self.store.append(rng_stream(request.game_id),
                                [_event(committed, uuid.uuid5(NAMESPACE, f"commit:{request.game_id}"))],
                                ExpectedVersion.ANY)
        ledger = await self.ledger(request.game_id)
        assert ledger.commitment is not None
        return Commitment(game_id=request.game_id, commitment=ledger.commitment.commitment,
                          recipe_version=ledger.commitment.recipe_version)

    async def add_client_seed(self, request: AddClientSeed) -> Commitment:
        if not check(self.engine_key, request.auth, "client_seed", request.game_id, request.seat,
                     request.client_seed):
            raise RejectedError("rng.forbidden", "client seeds come through the game engine, which checks the seat")
        ledger = await self.ledger(request.game_id)
        if ledger.commitment is None:
            raise RejectedError("rng.unknown-game", f"no seed is committed for {request.game_id}")
        given = ledger.client_seeds.get(request.seat)
        if given == request.client_seed:
            return Commitment(game_id=request.game_id, commitment=ledger.commitment.commitment,
                              recipe_version=ledger.commitment.recipe_version)
        if ledger.draws:
            raise RejectedError("rng.client-seed.too-late", "client seeds are taken only before the first draw")
        if not 0 <= request.seat < ledger.commitment.seats:
            raise RejectedError("rng.client-seed.seat", f"seat must be 0..{ledger.commitment.seats - 1}")
        if given is not None:
            raise RejectedError("rng.client-seed.already-set", f"seat {request.seat} has given its client seed")
        if not 1 <= len(request.client_seed.encode()) <= CLIENT_SEED_MAX_BYTES:
            raise RejectedError("rng.client-seed.length", f"a client seed is 1 to {CLIENT_SEED_MAX_BYTES} bytes")
        try:
            await self.store.append(rng_stream(request.game_id),
                                    [_event(ClientSeedAdded(seat=request.seat, client_seed=request.client_seed))],
                                    ledger.version)
        except ConcurrencyError:
            return await self.add_client_seed(request)
        return Commitment(game_id=request.game_id, commitment=ledger.commitment.commitment,
                          recipe_version=ledger.commitment.recipe_version)

    async def draw(self, request: DrawNumbers) -> NumberedDraw:
        if not check(self.engine_key, request.auth, "draw", request.game_id, request.nonce, request.request,
                     request.issued_at):
            raise RejectedError("rng.forbidden", "only the game engine may ask for draws")
        if abs(time.time() - request.issued_at) > MAX_AGE_SECONDS:
            raise RejectedError("rng.stale-request", "the draw request is too old to be answered")
        check_size(request.request)
        for _attempt in range(10):
            ledger = await self.ledger(request.game_id)
            if ledger.commitment is None:
                raise RejectedError("rng.unknown-game", f"no seed is committed for {request.game_id}")
            if ledger.revealed:
                raise RejectedError("rng.game-ended", "the game has ended; its seed is revealed")
            if request.nonce < len(ledger.draws):
                made = ledger.draws[request.nonce]
                if made.request != request.request:
                    raise RejectedError("rng.nonce-mismatch",
                                        f"draw {request.nonce} was made for {made.request}, not {request.request}")
                return NumberedDraw(nonce=made.nonce, request=made.request, values=made.values)
            if request.nonce > len(ledger.draws):
                raise RejectedError("rng.nonce-ahead", f"the next draw of this game is {len(ledger.draws)}")
            seed = await self._seed(request.game_id)
            values = draw(seed, request.game_id, ledger.seeds_in_seat_order(), request.nonce, request.request)
            drawn = Drawn(nonce=request.nonce, request=request.request, values=values)
            try:
                # Private to nobody: a draw of a running game is a deck order or a roll still to be used. The
                # engine gets it in the reply; everyone may recompute it once the seed is revealed.
                await self.store.append(rng_stream(request.game_id), [_event(drawn, visibility=NOBODY)],
                                        ledger.version)
            except ConcurrencyError:
                continue  # another replica drew (or a client seed came): read and answer again
            return NumberedDraw(nonce=drawn.nonce, request=drawn.request, values=drawn.values)
        raise RejectedError("rng.busy", "too many concurrent changes to this game's draws; try again")

    async def reveal(self, game_id: str, *, causation_id: str | None = None) -> bool:
        """Publish the seed. Only for a game whose own stream shows it over: see ``services.rng.revealer``."""
        ledger = await self.ledger(game_id)
        if ledger.commitment is None or ledger.revealed:
            return False
        seed = await self._seed(game_id)
        revealed = _event(SeedRevealed(server_seed=seed.hex()), uuid.uuid5(NAMESPACE, f"reveal:{game_id}"),
                          causation_id=causation_id)
        await self.store.append(rng_stream(game_id), [revealed], ExpectedVersion.ANY)
        log.info("rng.revealed", game_id=game_id)
        return True

    async def _seed(self, game_id: str) -> bytes:
        """The opened seed, kept in this process's memory while its game runs (it never leaves the process)."""
        seed = self._seeds.pop(game_id, None)
        if seed is None:
            async with self.pool.acquire() as conn:
                sealed = await conn.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", game_id)
            if sealed is None:
                raise RejectedError("rng.unknown-game", f"no seed is kept for {game_id}")
            seed = self.sealer.open(game_id, sealed)
        self._seeds[game_id] = seed
        if len(self._seeds) > CACHE_GAMES:
            self._seeds.popitem(last=False)
        return seed
