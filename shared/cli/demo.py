"""What ``make run`` shows once the league is up: bots playing real games through the gateway, as people would."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import aiohttp

from shared.cli.demo_record import DemoLog
from shared.client.table import bot_game, register_bots
from shared.client.tournament import play_tournament

SWISS_PLAYERS = 16
SEED_SECONDS = 30
"""The Swiss seasons and the Hockey game wait (at most this long) for every bot's client seed before the opening."""


def say(line: str) -> None:
    print(line, flush=True)


async def swiss(session: aiohttp.ClientSession, gateway: str, started: float, demo: DemoLog) -> dict[str, Any]:
    """A Swiss tournament of 16 bot managers in Phantoms of the Ice tables of 4."""
    names = [f"Manager {n + 1:02d}" for n in range(SWISS_PLAYERS)]
    clients = await register_bots(session, gateway, names)
    demo.players([c.player_id for c in clients])
    organiser = clients[0]
    tournament_id = await organiser.create_tournament(
        "Demo Swiss", "phantoms", {"type": "swiss", "table_size": 4}, SWISS_PLAYERS, {"edition": "poti"},
        client_seed_seconds=SEED_SECONDS)
    demo.tournament(tournament_id)
    async with asyncio.TaskGroup() as entering:
        for client in clients:
            entering.create_task(client.enter(tournament_id))
    view = await organiser.start(tournament_id)
    say(f"  Swiss tournament {tournament_id}: {SWISS_PLAYERS} managers, tables of 4, "
        f"{view['rounds_planned']} rounds of Phantoms of the Ice seasons")

    def finished(game_id: str) -> None:
        say(f"    [{time.monotonic() - started:4.0f}s] season {game_id} played")

    async with asyncio.TaskGroup() as playing:
        for n, client in enumerate(clients):
            playing.create_task(play_tournament(client, tournament_id, random.Random(n),
                                                on_game=finished if n == 0 else None))
    final = await organiser.tournament(tournament_id)
    by_id = {c.player_id: name for c, name in zip(clients, names, strict=True)}
    podium = ", ".join(f"{rank}. {by_id[p]}" for rank, p in enumerate(final["ranking"][:3], start=1))
    say(f"  [{time.monotonic() - started:4.0f}s] Swiss finished: {podium}")
    season = final["rounds"][-1]["tables"][0]["games"][0]["game_id"]
    say(f"      tournament: GET {gateway}/v1/tournaments/{tournament_id}")
    say(f"      league replay {season} --step      league audit {season}")
    return final


async def single_game(session: aiohttp.ClientSession, gateway: str, started: float, demo: DemoLog, game: str,
                      seats: int, seed: int, **fields: Any) -> None:
    game_id, final, names = await bot_game(session, gateway, game, seats, seed=seed, registered=demo.players,
                                           **fields)
    winners = ", ".join(names[seat] for seat in final.winners) or "nobody"
    say(f"  [{time.monotonic() - started:4.0f}s] {game_id} ({final.version} events) won by {winners}")
    say(f"      league replay {game_id} --step      league audit {game_id}")


async def play_demo(gateway: str, data_dir: Path) -> None:
    """The tasks run in task groups: when one fails or the demo is stopped, every other is cancelled and has
    finished before the HTTP session closes (none is left to fail on a closed session)."""
    started = time.monotonic()
    demo = DemoLog(data_dir)
    say("\nDemo: bot players play through the gateway (HTTP + WebSocket), as people would ...")
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=1800)) as session:
        async with asyncio.TaskGroup() as demos:
            demos.create_task(swiss(session, gateway, started, demo))
            demos.create_task(single_game(session, gateway, started, demo, "vortex", 4, seed=1))
            demos.create_task(single_game(session, gateway, started, demo, "hockeydice", 2, seed=2,
                                          client_seed_seconds=SEED_SECONDS))
    demo.finished()
