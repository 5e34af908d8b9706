from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import msgspec
import pytest
from nats.aio.client import Client

from services.engine.rng_client import RngClient
from services.rng.revealer import CHECKPOINT as REVEALER
from services.rng.sealing import Sealer
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.eventstore import Checkpoint, EventStore
from shared.eventstore.checkpoints import load_checkpoint
from shared.fairness import commitment, draw, verify_commitment
from shared.fairness.engine_auth import sign
from shared.fairness.recipe import draw_from_first_block
from shared.fairness.stream import BLOCK_BYTES
from shared.games.draws import DiceRequest, DrawRequest, RangeRequest, ShuffleRequest
from shared.infra.processes import ServiceProcess
from shared.keyfiles import new_key_text
from shared.messages.engine import DrawsUsed, GameEnded
from shared.messages.rng import (
    AddClientSeed,
    BlocksAhead,
    BlocksAnswers,
    ClientSeedAdded,
    Commitment,
    Commitments,
    CreateSeeds,
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
from shared.messages.stored import loaded, stored
from tests.infra import RunInfra
from tests.integration.helpers import service_running, until
from tests.integration.play import create, play_moves, play_to_end


@pytest.fixture(scope="module")
async def rng_service(migrated: RunInfra) -> AsyncIterator[ServiceProcess]:
    with service_running("rng", migrated.env, migrated.tmp / "rng-alone.log") as service:
        yield service


@pytest.fixture(scope="module")
async def replicas(migrated: RunInfra) -> AsyncIterator[tuple[Namespace, Namespace]]:
    """Two more RNG replicas on the same database, each reachable on its own subjects, so that a test chooses
    which one answers (behind one queue group NATS would choose)."""
    spaces = migrated.spare_namespaces[0], migrated.spare_namespaces[1]
    with contextlib.ExitStack() as stack:
        for name, ns in zip("ab", spaces, strict=True):
            stack.enter_context(service_running("rng", {**migrated.env, "NATS_SUBJECT_PREFIX": ns.prefix},
                                                migrated.tmp / f"rng-replica-{name}.log"))
        yield spaces


def client(nc: Client, migrated: RunInfra, ns: Namespace) -> RngClient:
    return RngClient(nc, ns, base64.b64decode(migrated.rng_engine_key))


@pytest.fixture
def engine(nc: Client, migrated: RunInfra, replicas: tuple[Namespace, Namespace]) -> RngClient:
    """The engine's client, all its requests answered by replica a."""
    return client(nc, migrated, replicas[0])


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


async def test_client_seeds_come_through_the_engine_and_are_taken_until_the_first_draw(
    engine: RngClient, nc: Client, migrated: RunInfra, store: EventStore, replicas: tuple[Namespace, Namespace]
) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    subject = engine.ns.command("rng", "client_seed")
    stranger = base64.b64decode(new_key_text())
    for auth in ("", sign(stranger, "client_seed", game, 1, "lucky-7")):
        with pytest.raises(RejectedError) as forged:
            await request(nc, subject, AddClientSeed(game_id=game, seat=1, client_seed="lucky-7", auth=auth),
                          Commitment)
        assert forged.value.code == "rng.forbidden"
    await engine.add_client_seed(game, 1, "lucky-7")
    await engine.add_client_seed(game, 1, "lucky-7")  # a retry: nothing new
    with pytest.raises(RejectedError) as twice:
        await engine.add_client_seed(game, 1, "again")
    assert twice.value.code == "rng.client-seed.already-set"
    with pytest.raises(RejectedError) as bad_seat:
        await engine.add_client_seed(game, 5, "x")
    assert bad_seat.value.code == "rng.client-seed.seat"
    await engine.draw(game, 0, DiceRequest(6, 2), client_seeds=("lucky-7",))
    with pytest.raises(RejectedError) as late:
        await engine.add_client_seed(game, 0, "late")  # the replica that drew knows
    assert late.value.code == "rng.client-seed.too-late"
    events = await rng_events(store, game)
    assert [type(e) for e in events] == [SeedCommitted, ClientSeedAdded]

    # Another replica knows once the game has recorded a draw (the engine's DrawsUsed in the game stream).
    other = client(nc, migrated, replicas[1])
    used = DrawsUsed(draws=(NumberedDraw(nonce=0, request=DiceRequest(6, 2), values=(1, 2)),))
    await store.append(game, [stored(used, actor="engine")])
    with pytest.raises(RejectedError) as late_elsewhere:
        await other.add_client_seed(game, 0, "late")
    assert late_elsewhere.value.code == "rng.client-seed.too-late"


async def test_a_draw_writes_nothing_and_the_same_nonce_and_request_give_the_same_numbers(
    engine: RngClient, store: EventStore, pool: asyncpg.Pool, superuser: asyncpg.Connection, migrated: RunInfra
) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    before = await event_rows(pool, game)
    first = await engine.draw(game, 0, ShuffleRequest(52), client_seeds=())
    assert sorted(first.values) == list(range(52))
    assert await engine.draw(game, 0, ShuffleRequest(52), client_seeds=()) == first
    assert await engine.draw(game, 0, ShuffleRequest(52)) == first  # the engine not stating the client seeds
    second = await engine.draw(game, 1, RangeRequest(1, 10**12), client_seeds=())
    assert 1 <= second.values[0] <= 10**12
    # No record of which nonces were drawn: the audit checks that the game used them 0, 1, 2, ... with no gap.
    ahead = await engine.draw(game, 5, DiceRequest(6, 1), client_seeds=())
    with pytest.raises(RejectedError) as huge:
        await engine.draw(game, 2, DiceRequest(6, 10**6), client_seeds=())
    assert huge.value.code == "rng.request.too-large"
    assert await event_rows(pool, game) == before, "a draw must not write to the events table"
    seed = await sealed_seed(superuser, migrated, game)
    for made in (first, second, ahead):
        assert draw(seed, game, [], made.nonce, made.request) == made.values


async def test_two_replicas_answer_the_same_draws_whichever_took_the_client_seeds(
    nc: Client, migrated: RunInfra, replicas: tuple[Namespace, Namespace], pool: asyncpg.Pool,
    superuser: asyncpg.Connection,
) -> None:
    a, b = (client(nc, migrated, ns) for ns in replicas)
    game = new_game()
    await a.open_game(game, 3)
    await b.add_client_seed(game, 0, "zero")  # b now holds the game in memory, with one client seed
    await a.add_client_seed(game, 2, "two")  # which b has not seen
    seeds = ("zero", "two")
    with pytest.raises(RejectedError) as fewer:
        await b.draw(game, 0, DiceRequest(6, 5), client_seeds=("zero",))
    assert fewer.value.code == "rng.client-seeds"
    before = await event_rows(pool, game)
    via_b = [await b.draw(game, n, DiceRequest(6, 5), client_seeds=seeds) for n in range(3)]
    via_a = [await a.draw(game, n, DiceRequest(6, 5), client_seeds=seeds) for n in range(3)]
    assert via_a == via_b and await event_rows(pool, game) == before
    seed = await sealed_seed(superuser, migrated, game)
    assert [d.values for d in via_a] == [draw(seed, game, list(seeds), n, DiceRequest(6, 5)) for n in range(3)]
    for wrong in ((), ("two", "zero"), ("zero", "two", "x")):
        with pytest.raises(RejectedError) as mismatch:
            await a.draw(game, 3, DiceRequest(6, 1), client_seeds=wrong)
        assert mismatch.value.code == "rng.client-seeds"


async def test_many_games_are_committed_in_one_request(
    engine: RngClient, nc: Client, migrated: RunInfra, store: EventStore, superuser: asyncpg.Connection
) -> None:
    games = [(new_game(), 2 + n % 3) for n in range(40)]
    already = await engine.open_game(games[7][0], games[7][1])
    committed = await engine.open_games(games)
    assert [c.game_id for c in committed] == [g for g, _ in games] and committed[7] == already
    assert len({c.commitment for c in committed}) == len(games)
    rows = await superuser.fetch("SELECT game_id, sealed FROM rng_seeds WHERE game_id = ANY($1::text[])",
                                 [g for g, _ in games])
    assert len(rows) == len(games)
    sealer = Sealer(base64.b64decode(migrated.rng_seed_key))
    sealed = {row["game_id"]: row["sealed"] for row in rows}
    for (game, seats), made in zip(games, committed, strict=True):
        assert commitment(sealer.open(game, sealed[game])) == made.commitment and made.recipe_version == "v1"
        assert await rng_events(store, game) == [SeedCommitted(game_id=game, commitment=made.commitment,
                                                              recipe_version="v1", seats=seats)]
    assert await engine.open_games(games[::-1]) == committed[::-1]  # again: nothing new
    assert (await engine.draw(games[0][0], 0, DiceRequest(6, 1), client_seeds=())).nonce == 0
    subject = engine.ns.command("rng", "create_many")
    batch = (GameSeats(game_id=new_game(), seats=2),)
    for bad, code in ((CreateSeeds(games=batch, auth=""), "rng.forbidden"),
                      (signed_batch(migrated, batch * 2), "rng.create.batch"),
                      (signed_batch(migrated, ()), "rng.create.batch"),
                      (signed_batch(migrated, (GameSeats(game_id=new_game(), seats=17),)), "rng.seats")):
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, bad, Commitments)
        assert refused.value.code == code


async def test_only_the_engine_may_ask_for_draws(engine: RngClient, nc: Client, migrated: RunInfra) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    subject = engine.ns.command("rng", "draws")
    wanted = (WantedDraw(game_id=game, nonce=0, request=DiceRequest(6, 1), client_seeds=()),)
    stranger = base64.b64decode(new_key_text())
    forged = DrawNumbers(draws=wanted, issued_at=1e9, auth=sign(stranger, *draws_signed(wanted, 1e9)))
    unsigned = DrawNumbers(draws=wanted, issued_at=1e9, auth="")
    for attempt in (forged, unsigned):
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, attempt, DrawAnswers)
        assert refused.value.code == "rng.forbidden"
    key = base64.b64decode(migrated.rng_engine_key)
    now = time.time()
    signed = DrawNumbers(draws=wanted, issued_at=now, auth=sign(key, *draws_signed(wanted, now)))
    answer = await request(nc, subject, signed, DrawAnswers)
    assert [a.draw.nonce for a in answer.answers if a.draw] == [0]
    for changed in (msgspec.structs.replace(wanted[0], client_seeds=("mine",)),
                    msgspec.structs.replace(wanted[0], client_seeds=None),
                    msgspec.structs.replace(wanted[0], nonce=1)):
        with pytest.raises(RejectedError) as altered:
            await request(nc, subject, msgspec.structs.replace(signed, draws=(changed,)), DrawAnswers)
        assert altered.value.code == "rng.forbidden"
    stale = DrawNumbers(draws=wanted, issued_at=1e9, auth=sign(key, *draws_signed(wanted, 1e9)))
    with pytest.raises(RejectedError) as old:
        await request(nc, subject, stale, DrawAnswers)
    assert old.value.code == "rng.stale-request"


async def test_draws_of_many_games_in_one_request_are_answered_or_refused_each_on_its_own(
        engine: RngClient, nc: Client, migrated: RunInfra) -> None:
    games = [new_game() for _ in range(3)]
    for game in games:
        await engine.open_game(game, 2)
    unknown = new_game()
    wanted = (WantedDraw(game_id=games[0], nonce=0, request=DiceRequest(6, 3), client_seeds=()),
              WantedDraw(game_id=unknown, nonce=0, request=DiceRequest(6, 1), client_seeds=()),
              WantedDraw(game_id=games[1], nonce=0, request=ShuffleRequest(10), client_seeds=("not-given",)),
              WantedDraw(game_id=games[2], nonce=4, request=RangeRequest(1, 100), client_seeds=()))
    key, now = base64.b64decode(migrated.rng_engine_key), time.time()
    answer = await request(nc, engine.ns.command("rng", "draws"),
                           DrawNumbers(draws=wanted, issued_at=now, auth=sign(key, *draws_signed(wanted, now))),
                           DrawAnswers)
    first, missing, seeds, last = answer.answers
    assert first.draw is not None and len(first.draw.values) == 3 and first.code is None
    assert missing.draw is None and missing.code == "rng.unknown-game"
    assert seeds.draw is None and seeds.code == "rng.client-seeds"
    assert last.draw is not None and last.draw.nonce == 4 and 1 <= last.draw.values[0] <= 100
    alone = await asyncio.gather(engine.draw(games[0], 0, DiceRequest(6, 3), client_seeds=()),
                                 engine.draw(games[2], 4, RangeRequest(1, 100), client_seeds=()))
    assert list(alone) == [first.draw, last.draw]  # the engine's batched asking gives the same numbers


async def test_blocks_handed_out_ahead_give_the_numbers_a_draw_would(
        engine: RngClient, nc: Client, migrated: RunInfra, pool: asyncpg.Pool) -> None:
    game = new_game()
    await engine.open_game(game, 2)
    before = await event_rows(pool, game)
    blocks = await engine.blocks(WantedBlocks(game_id=game, first_nonce=3, count=8, client_seeds=()))
    assert len(blocks) == 8 * BLOCK_BYTES
    requests: list[DrawRequest] = [DiceRequest(6, 3), RangeRequest(1, 100), DiceRequest(20, 2), ShuffleRequest(5)]
    for n, request_ in enumerate(requests * 2):
        nonce = 3 + n
        drawn = await engine.draw(game, nonce, request_, client_seeds=())
        assert draw_from_first_block(blocks[n * BLOCK_BYTES:(n + 1) * BLOCK_BYTES], nonce, request_) == drawn.values
    assert await event_rows(pool, game) == before, "blocks ahead must not write to the events table"

    subject = engine.ns.command("rng", "blocks")
    key, stranger, now = base64.b64decode(migrated.rng_engine_key), base64.b64decode(new_key_text()), time.time()
    wanted = (WantedBlocks(game_id=game, first_nonce=0, count=4, client_seeds=()),)
    for forged in (BlocksAhead(wanted=wanted, issued_at=now, auth=sign(stranger, *blocks_signed(wanted, now))),
                   BlocksAhead(wanted=wanted, issued_at=now, auth=""),
                   BlocksAhead(wanted=(msgspec.structs.replace(wanted[0], count=5),), issued_at=now,
                               auth=sign(key, *blocks_signed(wanted, now)))):
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, forged, BlocksAnswers)
        assert refused.value.code == "rng.forbidden"
    each = (WantedBlocks(game_id=game, first_nonce=0, count=65, client_seeds=()),
            WantedBlocks(game_id=new_game(), first_nonce=0, count=4, client_seeds=()),
            WantedBlocks(game_id=game, first_nonce=0, count=4, client_seeds=("never-given",)),
            WantedBlocks(game_id=game, first_nonce=2**64 - 2, count=4, client_seeds=()),
            WantedBlocks(game_id=game, first_nonce=0, count=1, client_seeds=()))
    answer = await request(nc, subject, BlocksAhead(wanted=each, issued_at=now,
                                                    auth=sign(key, *blocks_signed(each, now))), BlocksAnswers)
    assert [a.code for a in answer.answers] == ["rng.request.too-large", "rng.unknown-game", "rng.client-seeds",
                                                "rng.request.invalid", None]
    assert answer.answers[-1].blocks is not None and len(answer.answers[-1].blocks) == BLOCK_BYTES
    stale = BlocksAhead(wanted=wanted, issued_at=1e9, auth=sign(key, *blocks_signed(wanted, 1e9)))
    with pytest.raises(RejectedError) as old:
        await request(nc, subject, stale, BlocksAnswers)
    assert old.value.code == "rng.stale-request"


async def test_a_forged_game_end_reveals_nothing_and_the_seed_stays_unreadable(
    nc: Client, migrated: RunInfra, store: EventStore, pool: asyncpg.Pool, superuser: asyncpg.Connection,
    engine: RngClient, rng_service: ServiceProcess, game_services: dict[str, ServiceProcess],
) -> None:
    # Several services may append to any stream of the log, so any writer (this test) can append a GameEnded.
    running = await create(nc, migrated.namespace, "vortex", 2)
    await play_moves(nc, migrated.namespace, store, running, 3)
    drawn_only = new_game()  # a seed and draws, but no game stream at all
    await engine.open_game(drawn_only, 2)
    await engine.draw(drawn_only, 0, DiceRequest(6, 3))
    forged = [await store.append(game, [stored(GameEnded(game="vortex", winners=(0,)), actor="engine")])
              for game in (running, drawn_only)]
    last_forged = max([(await store.read_stream(game, result.last_version))[0].checkpoint
                       for game, result in zip((running, drawn_only), forged, strict=True)])
    await revealer_passed(pool, last_forged)

    # Every RNG process on this database follows the log (the module's replicas too): any of them may have looked.
    refused = {line.get("game_id") for line in log_files(sorted(migrated.tmp.glob("rng*.log")))
               if line.get("event") == "rng.reveal.refused"}
    for game in (running, drawn_only):
        assert [e for e in await rng_events(store, game) if isinstance(e, SeedRevealed)] == []
        assert game in refused, "the revealer should say why it did not reveal"
        seed = await sealed_seed(superuser, migrated, game)
        assert not await seed_anywhere(superuser, seed, [rng_service, *game_services.values()])
        assert [e.type for e in await store.read_stream(rng_stream(game))] == ["rng.SeedCommitted"]
        used = [e for e in await store.read_stream(game) if e.type == "engine.DrawsUsed"]
        assert bool(used) == (game == running) and all(e.metadata.visibility == () for e in used), \
            "draws are recorded by the game alone, private until the reveal"
    # Still running as far as the RNG service knows: the engine may go on drawing.
    await engine.draw(drawn_only, 1, DiceRequest(6, 1))


async def test_a_real_end_reveals_the_seed_and_every_draw_recomputes(
    nc: Client, migrated: RunInfra, store: EventStore, superuser: asyncpg.Connection, engine: RngClient,
    rng_service: ServiceProcess, game_services: dict[str, ServiceProcess],
) -> None:
    game = await create(nc, migrated.namespace, "vortex", 2)
    interfaces_before = [get(f"{rng_service.url}/healthz"), get(f"{rng_service.url}/metrics")]
    table = await play_to_end(nc, migrated.namespace, store, game, seed=5)
    assert table.over and table.opened is not None
    revealed = await wait_for_reveal(store, game)
    seed = bytes.fromhex(revealed.server_seed)
    assert verify_commitment(seed, table.opened.commitment or "") and commitment(seed) == table.opened.commitment
    recorded = await store.read_stream(rng_stream(game))
    assert not any(e.type == "rng.Drawn" for e in recorded)
    game_events = await store.read_stream(game)
    drawn = [d for e in game_events if e.type == "engine.DrawsUsed"
             for d in msgspec.convert(e.payload(), DrawsUsed).draws]
    assert len(drawn) >= 2 and [d.nonce for d in drawn] == list(range(len(drawn)))
    for numbered in drawn:
        assert draw(seed, game, [], numbered.nonce, numbered.request) == numbered.values

    # The reveal follows from the end: same correlation id, the GameEnded as its cause; it names the stream's end.
    [end] = [e for e in game_events if e.type == "engine.GameEnded"]
    assert (revealed.game_version, revealed.game_hash) == (game_events[-1].version, game_events[-1].hash.hex())
    [reveal] = [e for e in recorded if e.type == "rng.SeedRevealed"]
    assert reveal.metadata.causation_id == str(end.event_id)
    assert reveal.metadata.correlation_id == end.metadata.correlation_id

    # Now that the seed is known: nothing stored or served before the reveal ever held it, in any encoding.
    assert await seed_anywhere(superuser, seed, [], but=reveal.event_id) == []
    assert not any(e in text for text in interfaces_before for e in encodings(seed))
    sealed = await superuser.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", game)
    assert seed not in sealed and len(sealed) == 12 + 32 + 16, "the seed must be stored sealed (AES-GCM)"
    with pytest.raises(RejectedError) as ended:
        await engine.draw(game, len(drawn), DiceRequest(6, 1))
    assert ended.value.code == "rng.game-ended"
    with pytest.raises(RejectedError) as ended:
        await engine.blocks(WantedBlocks(game_id=game, first_nonce=len(drawn), count=4, client_seeds=()))
    assert ended.value.code == "rng.game-ended"


async def event_rows(pool: asyncpg.Pool, game: str) -> tuple[int, int]:
    """Rows of the game's two streams, and of the RNG's writes anywhere."""
    async with pool.acquire() as conn:
        rows: tuple[int, int] = await conn.fetchrow(
            "SELECT count(*) FILTER (WHERE stream_id IN ($1, $2)), count(*) FILTER (WHERE metadata->>'actor' = 'rng')"
            " FROM events", game, rng_stream(game))
    return rows


def log_lines(*services: ServiceProcess) -> list[dict[str, object]]:
    return log_files([s.log_path for s in services if s.log_path])


def log_files(paths: list[Path]) -> list[dict[str, object]]:
    texts = [path.read_text() for path in paths if path.exists()]
    return [json.loads(line) for text in texts for line in text.splitlines() if line.startswith("{")]


def encodings(seed: bytes) -> list[str]:
    return [seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode(), str(list(seed))]


async def sealed_seed(superuser: asyncpg.Connection, infra: RunInfra, game: str) -> bytes:
    """What only the RNG service (holding the seed key) can read: the test opens it to search for it."""
    sealed = await superuser.fetchval("SELECT sealed FROM rng_seeds WHERE game_id = $1", game)
    return Sealer(base64.b64decode(infra.rng_seed_key)).open(game, sealed)


async def seed_anywhere(superuser: asyncpg.Connection, seed: bytes, services: list[ServiceProcess],
                        but: uuid.UUID | None = None) -> list[str]:
    """Where the seed can be read: any stored event (but ``but``), any service's /healthz or /metrics."""
    rows = await superuser.fetch("SELECT event_id, data::text || metadata::text FROM events")
    found = [f"event {row[0]}" for row in rows if row[0] != but and any(e in row[1] for e in encodings(seed))]
    for service in services:
        for path in ("/healthz", "/metrics"):
            if any(e in get(f"{service.url}{path}") for e in encodings(seed)):
                found.append(f"{service.name}{path}")
    return found


async def revealer_passed(pool: asyncpg.Pool, checkpoint: Checkpoint) -> None:
    async def passed() -> bool:
        async with pool.acquire() as conn:
            return bool(await load_checkpoint(conn, REVEALER) >= checkpoint)

    await until("the revealer read past the forged GameEnded", passed, 30)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode())


async def wait_for_reveal(store: EventStore, game: str) -> SeedRevealed:
    async def revealed() -> list[SeedRevealed]:
        return [e for e in await rng_events(store, game) if isinstance(e, SeedRevealed)]

    found: list[SeedRevealed] = await until("the seed revealed after the game ended", revealed, 30)
    assert len(found) == 1
    return found[0]


def signed_batch(infra: RunInfra, games: tuple[GameSeats, ...]) -> CreateSeeds:
    return CreateSeeds(games=games, auth=sign(base64.b64decode(infra.rng_engine_key), *create_many_signed(games)))


def test_production_refuses_to_start_without_a_seed_key(migrated: RunInfra) -> None:
    env = {**migrated.env, "ENVIRONMENT": "production", "RNG_SEED_KEY": ""}
    log = migrated.tmp / "rng-production.log"
    service = ServiceProcess("rng", env, log)
    service.start()
    assert service.process is not None and service.process.wait(30) != 0
    assert "RNG_SEED_KEY" in log.read_text()
