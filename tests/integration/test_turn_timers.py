"""A seat that does not act in time gets the default bot's move, recorded as such; bot seats play themselves."""

from __future__ import annotations

import asyncio
import uuid

import aiohttp
import asyncpg
import msgspec
from nats.aio.client import Client

from services.engine.games import Games
from services.engine.handler import Engine
from services.engine.rng_client import RngClient
from shared.bus.replies import RejectedError
from shared.cli.abandon import abandon_with
from shared.client.table import register_bots
from shared.eventstore import EventStore
from shared.keyfiles import parse_key
from shared.messages.engine import CommandAccepted, CreateGame
from shared.messages.stored import loaded
from tests.infra import RunInfra
from tests.integration.play import revealed


async def accepted(store: EventStore, game_id: str) -> list[CommandAccepted]:
    return [e for e in map(loaded, await store.read_stream(game_id)) if isinstance(e, CommandAccepted)]


async def first_moves(store: EventStore, game_id: str, seconds: float) -> list[CommandAccepted]:
    """The moves of the game as soon as there are any (none after ``seconds``)."""
    for _ in range(int(seconds * 10)):
        if moves := await accepted(store, game_id):
            return moves
        await asyncio.sleep(0.1)
    return []


async def stop(nc: Client, infra: RunInfra, game_id: str) -> None:
    """A game timed out once a second would go on being played for the engine by its default bot while later
    tests run (its moves are live-board changes on their dashboards): its test has seen what it came for."""
    try:
        await abandon_with(nc, infra.namespace, game_id, "the test has seen its timed-out moves", "tests")
    except RejectedError:
        pass  # it ended first


async def test_an_idle_seat_gets_the_default_bots_move_after_its_turn_seconds(
    gateway: str, session: aiohttp.ClientSession, store: EventStore, nc: Client, migrated: RunInfra
) -> None:
    idle = await register_bots(session, gateway, ["Idle one", "Idle two"])
    game_id = await idle[0].create_game("hockeydice", 2, players=[c.player_id for c in idle], turn_seconds=1,
                                        options={"periods": 1, "shots_per_period": 1})
    await asyncio.sleep(0.5)
    assert await accepted(store, game_id) == [], "a move was made before the turn timer ran out"
    moves = await first_moves(store, game_id, 30)
    assert moves and all(m.by_bot == "timeout:greedy" for m in moves)
    first = (await store.read_stream(game_id))[0].recorded_at
    timed_out = next(e for e in await store.read_stream(game_id) if e.type == "engine.CommandAccepted")
    assert (timed_out.recorded_at - first).total_seconds() >= 1.0
    assert timed_out.metadata.actor == "bot:greedy"
    await stop(nc, migrated, game_id)


async def test_bot_seats_play_their_own_moves_to_the_end(
    gateway: str, session: aiohttp.ClientSession, store: EventStore
) -> None:
    (host,) = await register_bots(session, gateway, ["Host"])
    game_id = await host.create_game("vortex", 3, players=[None, None, None], bots=["greedy", "random", "greedy"],
                                     options={"max_rounds": 4})
    for _ in range(600):
        if (await host.view(game_id)).ended:
            break
        await asyncio.sleep(0.1)
    assert (await host.view(game_id)).ended
    await revealed(store, game_id)
    moves = await accepted(store, game_id)
    assert moves and {(m.seat, m.by_bot) for m in moves} <= {(0, "greedy"), (1, "random"), (2, "greedy")}
    assert {m.seat for m in moves} == {0, 1, 2}
    report = msgspec.json.decode(msgspec.json.encode(await host.call("GET", f"/audit/{game_id}")))
    assert report["verified"] is True


async def test_a_timed_game_whose_creating_replica_died_is_timed_out_by_another_replica(
    nc: Client, pool: asyncpg.Pool, store: EventStore, migrated: RunInfra, game_services: object
) -> None:
    """A replica in this process opens the game and is gone: the running engine never saw the creation and must
    find the game in the log by itself."""
    await asyncio.sleep(1.0)  # past the engine's scan at start-up: only its periodic rescan can find the game
    key = parse_key(migrated.rng_engine_key, "RNG_ENGINE_KEY")
    creator = Engine(Games(store, store), pool, RngClient(nc, migrated.namespace, key))
    game_id = f"hockeydice-{uuid.uuid4().hex[:16]}"
    await creator.create(CreateGame(game="hockeydice", game_id=game_id, seats=2, players=("late-1", "late-2"),
                                    turn_seconds=1, options=msgspec.Raw(b'{"periods": 1, "shots_per_period": 1}'),
                                    command_id=str(uuid.uuid4())))
    del creator
    moves = await first_moves(store, game_id, 15)
    assert moves and all(m.by_bot == "timeout:greedy" for m in moves)
    await stop(nc, migrated, game_id)
