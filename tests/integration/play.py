"""A referee's driver for tests: bots choose from the full state (read from the stream) and play through the
engine service over NATS, exactly as any client's commands arrive."""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import dataclass

import msgspec
from nats.aio.client import Client

from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore
from shared.messages.engine import CommandResult, CreateGame, PlayCommand
from shared.messages.rng import SeedRevealed, rng_stream
from shared.play.table import Table

_encoder = msgspec.json.Encoder()


async def create(nc: Client, ns: Namespace, game: str, seats: int, options: dict[str, object] | None = None) -> str:
    game_id = f"{game}-{uuid.uuid4().hex[:16]}"
    create_game = CreateGame(game=game, game_id=game_id, seats=seats,
                             options=msgspec.Raw(_encoder.encode(options or {})), command_id=str(uuid.uuid4()))
    await ask_engine(nc, ns, game_id, "command", create_game, CommandResult)
    return game_id


@dataclass
class Pace:
    seconds: float = 0.0
    """Between two commands of one game; change it while the games run."""


async def play_to_end(nc: Client, ns: Namespace, store: EventStore, game_id: str, *, bot: str = "greedy",
                      seed: int = 1, max_commands: int = 5000, pace: Pace | None = None) -> Table:
    rng = random.Random(seed)
    table = Table(game_id)
    for _ in range(max_commands):
        table.apply_all(await store.read_stream(game_id, table.version + 1))
        if table.ended is not None:
            await revealed(store, game_id)
            return table
        await bot_move(nc, ns, table, bot, rng)
        if pace is not None and pace.seconds:
            await asyncio.sleep(pace.seconds)
    raise AssertionError(f"{game_id} did not end within {max_commands} commands")


async def bot_move(nc: Client, ns: Namespace, table: Table, bot: str, rng: random.Random) -> None:
    """The first pending seat's move, as ``bot`` chooses it, sent to the engine."""
    assert table.rules is not None
    seat = min(table.rules.pending_seats(table.state))
    command = table.rules.bots[bot](table.state, seat, rng)
    await ask_engine(nc, ns, table.game_id, "command",
                     PlayCommand(game_id=table.game_id, command=msgspec.Raw(_encoder.encode(command)),
                                 command_id=str(uuid.uuid4()), actor=f"bot:{bot}", by_bot=bot), CommandResult)


async def play_moves(nc: Client, ns: Namespace, store: EventStore, game_id: str, count: int, *,
                     bot: str = "greedy", seed: int = 1) -> Table:
    """``count`` bot moves (fewer if the game ends first); the game as the stream then shows it."""
    rng = random.Random(seed)
    table = Table(game_id)
    for _ in range(count):
        table.apply_all(await store.read_stream(game_id, table.version + 1))
        if table.ended is not None:
            break
        await bot_move(nc, ns, table, bot, rng)
    return table.apply_all(await store.read_stream(game_id, table.version + 1))


async def revealed(store: EventStore, game_id: str, timeout: float = 30) -> None:
    """The RNG service reveals the seed once it has read the game's end from the log."""
    reveal = SeedRevealed.__struct_config__.tag
    for _ in range(int(timeout / 0.05)):
        if any(e.type == reveal for e in await store.read_stream(rng_stream(game_id))):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the seed of {game_id} was not revealed within {timeout}s of its end")
