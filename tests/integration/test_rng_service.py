from __future__ import annotations

import asyncio
import base64
import urllib.request
import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest
from nats.aio.client import Client

from services.engine.rng_client import RngClient
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.fairness import commitment, draw, verify_commitment
from shared.fairness.engine_auth import sign
from shared.games.draws import DiceRequest, RangeRequest, ShuffleRequest
from shared.infra.processes import ServiceProcess
from shared.keyfiles import new_key_text
from shared.messages.engine import GameEnded
from shared.messages.rng import (
    AddClientSeed,
    ClientSeedAdded,
    Commitment,
    Drawn,
    DrawNumbers,
    NumberedDraw,
    SeedCommitted,
    SeedRevealed,
    rng_stream,
)
from shared.messages.stored import loaded, stored
from tests.infra import RunInfra


@pytest.fixture(scope="module")
async def rng_service(migrated: RunInfra) -> AsyncIterator[ServiceProcess]:
    service = ServiceProcess("rng", migrated.env, migrated.tmp / "rng.log")
    service.start()
    service.wait_healthy(60)
    yield service
    assert service.stop() == 0


@pytest.fixture
def engine(nc: Client, migrated: RunInfra, rng_service: ServiceProcess) -> RngClient:
    return RngClient(nc, migrated.namespace, base64.b64decode(migrated.rng_engine_key))


def new_game() -> str:
    return f"vortex-{uuid.uuid4().hex}"


async def rng_events(store: EventStore, game_id: str) -> list[object]:
    return [loaded(e) for e in await store.read_stream(rng_stream(game_id))]


async def test_the_seed_is_committed_before_any_draw_and_creating_twice_changes_nothing(
    engine: RngClient, store: EventStore
) -> None:
    game = new_game()
    first = await engine.open_game(game, 4)
    again = await engine.open_game(game, 4)
    assert first == again and len(first.commitment) == 64 and first.recipe_version == "v1"
    events = await rng_events(store, game)
    assert events == [SeedCommitted(game_id=game, commitment=first.commitment, recipe_version="v1", seats=4)]


async def test_client_seeds_are_taken_until_the_first_draw(
    engine: RngClient, nc: Client, migrated: RunInfra, store: EventStore
) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    subject = migrated.namespace.command("rng", "client_seed")
    await request(nc, subject, AddClientSeed(game_id=game, seat=1, client_seed="lucky-7"), Commitment)
    with pytest.raises(RejectedError) as twice:
        await request(nc, subject, AddClientSeed(game_id=game, seat=1, client_seed="again"), Commitment)
    assert twice.value.code == "rng.client-seed.already-set"
    with pytest.raises(RejectedError) as bad_seat:
        await request(nc, subject, AddClientSeed(game_id=game, seat=5, client_seed="x"), Commitment)
    assert bad_seat.value.code == "rng.client-seed.seat"
    await engine.draw(game, 0, DiceRequest(6, 2))
    with pytest.raises(RejectedError) as late:
        await request(nc, subject, AddClientSeed(game_id=game, seat=0, client_seed="late"), Commitment)
    assert late.value.code == "rng.client-seed.too-late"
    events = await rng_events(store, game)
    assert [type(e) for e in events] == [SeedCommitted, ClientSeedAdded, Drawn]


async def test_a_draw_is_recorded_with_its_nonce_and_asking_again_returns_the_same_numbers(
    engine: RngClient, store: EventStore
) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    first = await engine.draw(game, 0, ShuffleRequest(52))
    assert sorted(first.values) == list(range(52))
    assert await engine.draw(game, 0, ShuffleRequest(52)) == first
    second = await engine.draw(game, 1, RangeRequest(1, 10**12))
    assert 1 <= second.values[0] <= 10**12
    with pytest.raises(RejectedError) as ahead:
        await engine.draw(game, 5, DiceRequest(6, 1))
    assert ahead.value.code == "rng.nonce-ahead" and "next draw of this game is 2" in ahead.value.message
    with pytest.raises(RejectedError) as other:
        await engine.draw(game, 0, DiceRequest(6, 1))
    assert other.value.code == "rng.nonce-mismatch"
    with pytest.raises(RejectedError) as huge:
        await engine.draw(game, 2, DiceRequest(6, 10**6))
    assert huge.value.code == "rng.request.too-large"
    drawn = [e for e in await rng_events(store, game) if isinstance(e, Drawn)]
    assert [(d.nonce, d.values) for d in drawn] == [(0, first.values), (1, second.values)]


async def test_only_the_engine_may_ask_for_draws(engine: RngClient, nc: Client, migrated: RunInfra) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    subject = migrated.namespace.command("rng", "draw")
    stranger = base64.b64decode(new_key_text())
    forged = DrawNumbers(game_id=game, nonce=0, request=DiceRequest(6, 1), issued_at=1e9,
                         auth=sign(stranger, "draw", game, 0, DiceRequest(6, 1), 1e9))
    unsigned = DrawNumbers(game_id=game, nonce=0, request=DiceRequest(6, 1), issued_at=1e9, auth="")
    for attempt in (forged, unsigned):
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, attempt, NumberedDraw)
        assert refused.value.code == "rng.forbidden"
    key = base64.b64decode(migrated.rng_engine_key)
    stale = DrawNumbers(game_id=game, nonce=0, request=DiceRequest(6, 1), issued_at=1e9,
                        auth=sign(key, "draw", game, 0, DiceRequest(6, 1), 1e9))
    with pytest.raises(RejectedError) as old:
        await request(nc, subject, stale, NumberedDraw)
    assert old.value.code == "rng.stale-request"


async def test_the_seed_stays_secret_until_the_game_ends_then_every_draw_recomputes(
    engine: RngClient, store: EventStore, superuser: asyncpg.Connection, rng_service: ServiceProcess
) -> None:
    game = new_game()
    committed = await engine.open_game(game, 2)
    draws = [await engine.draw(game, n, DiceRequest(6, 3)) for n in range(5)]
    assert [e for e in await rng_events(store, game) if isinstance(e, SeedRevealed)] == []
    interfaces_before = [get(f"{rng_service.url}/healthz"), get(f"{rng_service.url}/metrics")]
    last_before_end = await superuser.fetchval("SELECT max(position) FROM events")

    await store.append(game, [stored(GameEnded(game="vortex", winners=(0,)), actor="engine")])
    revealed = await wait_for_reveal(store, game)
    seed = bytes.fromhex(revealed.server_seed)
    assert verify_commitment(seed, committed.commitment) and commitment(seed) == committed.commitment
    for numbered in draws:
        assert draw(seed, game, [], numbered.nonce, numbered.request) == numbered.values

    # Now that the seed is known: nothing stored or served before the end ever held it, in any encoding.
    encodings = [seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode(), str(list(seed))]
    rows = await superuser.fetch("SELECT data::text || metadata::text FROM events WHERE position <= $1",
                                 last_before_end)
    assert not any(e in row[0] for row in rows for e in encodings)
    assert not any(e in text for text in interfaces_before for e in encodings)
    sealed = await superuser.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", game)
    assert seed not in sealed and len(sealed) == 12 + 32 + 16, "the seed must be stored sealed (AES-GCM)"
    with pytest.raises(RejectedError) as ended:
        await engine.draw(game, 5, DiceRequest(6, 1))
    assert ended.value.code == "rng.game-ended"


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode())


async def wait_for_reveal(store: EventStore, game: str) -> SeedRevealed:
    for _ in range(100):
        found = [e for e in await rng_events(store, game) if isinstance(e, SeedRevealed)]
        if found:
            assert len(found) == 1
            return found[0]
        await asyncio.sleep(0.1)
    raise AssertionError("the seed was not revealed after the game ended")


def test_production_refuses_to_start_without_a_seed_key(migrated: RunInfra) -> None:
    env = {**migrated.env, "ENVIRONMENT": "production", "RNG_SEED_KEY": ""}
    log = migrated.tmp / "rng-production.log"
    service = ServiceProcess("rng", env, log)
    service.start()
    assert service.process is not None and service.process.wait(30) != 0
    assert "RNG_SEED_KEY" in log.read_text()
