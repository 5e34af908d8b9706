"""What ``make run`` shows once the league is up: bots playing real games through the gateway, as people would."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import aiohttp

from shared.client.table import bot_game, register_bots
from shared.client.tournament import play_tournament

SWISS_PLAYERS = 16
SEED_SECONDS = 30
"""The Swiss seasons and the Hockey game wait (at most this long) for every bot's client seed before the opening."""


def say(line: str) -> None:
    print(line, flush=True)


async def swiss(session: aiohttp.ClientSession, gateway: str, started: float) -> dict[str, Any]:
    """A Swiss tournament of 16 bot managers in Phantoms of the Ice tables of 4."""
    names = [f"Manager {n + 1:02d}" for n in range(SWISS_PLAYERS)]
    clients = await register_bots(session, gateway, names)
    organiser = clients[0]
    tournament_id = await organiser.create_tournament(
        "Demo Swiss", "phantoms", {"type": "swiss", "table_size": 4}, SWISS_PLAYERS, {"edition": "poti"},
        client_seed_seconds=SEED_SECONDS)
    await asyncio.gather(*(c.enter(tournament_id) for c in clients))
    view = await organiser.start(tournament_id)
    say(f"  Swiss tournament {tournament_id}: {SWISS_PLAYERS} managers, tables of 4, "
        f"{view['rounds_planned']} rounds of Phantoms of the Ice seasons")

    def finished(game_id: str) -> None:
        say(f"    [{time.monotonic() - started:4.0f}s] season {game_id} played")

    await asyncio.gather(*(play_tournament(c, tournament_id, random.Random(n), on_game=finished if n == 0 else None)
                           for n, c in enumerate(clients)))
    final = await organiser.tournament(tournament_id)
    by_id = {c.player_id: name for c, name in zip(clients, names, strict=True)}
    podium = ", ".join(f"{rank}. {by_id[p]}" for rank, p in enumerate(final["ranking"][:3], start=1))
    say(f"  [{time.monotonic() - started:4.0f}s] Swiss finished: {podium}")
    season = final["rounds"][-1]["tables"][0]["games"][0]["game_id"]
    say(f"      tournament: GET {gateway}/v1/tournaments/{tournament_id}")
    say(f"      .venv/bin/league replay {season} --step      .venv/bin/league audit {season}")
    return final


async def single_games(session: aiohttp.ClientSession, gateway: str, started: float) -> None:
    tables = [bot_game(session, gateway, "vortex", 4, seed=1),
              bot_game(session, gateway, "hockeydice", 2, seed=2, client_seed_seconds=SEED_SECONDS)]
    for done in asyncio.as_completed(tables):
        game_id, final, names = await done
        winners = ", ".join(names[seat] for seat in final.winners) or "nobody"
        say(f"  [{time.monotonic() - started:4.0f}s] {game_id} ({final.version} events) won by {winners}")
        say(f"      .venv/bin/league replay {game_id} --step      .venv/bin/league audit {game_id}")


async def play_demo(gateway: str) -> None:
    started = time.monotonic()
    say("\nDemo: bot players play through the gateway (HTTP + WebSocket), as people would ...")
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=1800)) as session:
        await asyncio.gather(swiss(session, gateway, started), single_games(session, gateway, started))
