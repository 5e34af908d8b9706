"""``league bots``: bot players that play through the gateway like people."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import aiohttp

from shared.cli.connection import gateway_url
from shared.client.table import bot_game, register_bots
from shared.client.tournament import play_tournament


async def bots_game(data_dir: Path, gateway: str | None, game: str, players: int, options: str) -> int:
    url = gateway or gateway_url(data_dir)
    async with aiohttp.ClientSession() as session:
        game_id, final, names = await bot_game(session, url, game, players, json.loads(options or "{}"))
    winners = ", ".join(names[seat] for seat in final.winners) or "nobody"
    print(f"{game_id} ended after {final.version} events; won by {winners}")
    print(f"  replay: league replay {game_id} --step")
    print(f"  audit:  league audit {game_id}")
    return 0


async def bots_tournament(data_dir: Path, gateway: str | None, tournament_id: str, players: int) -> int:
    """Fill a tournament with bot clients that enter it and play every game they are given through the gateway."""
    url = gateway or gateway_url(data_dir)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        clients = await register_bots(session, url, [f"Bot {n + 1:04d}" for n in range(players)])
        await asyncio.gather(*(c.enter(tournament_id) for c in clients))
        print(f"{players} bots entered {tournament_id}; they play as soon as it starts "
              f"(POST /v1/tournaments/{tournament_id}/start)", flush=True)
        played = 0

        def done(game_id: str) -> None:
            nonlocal played
            played += 1
            print(f"  {played} games played ({game_id})", flush=True)

        await asyncio.gather(*(play_tournament(c, tournament_id, random.Random(n), on_game=done)
                               for n, c in enumerate(clients)))
        final = await clients[0].tournament(tournament_id)
    names = {c.player_id: f"Bot {n + 1:04d}" for n, c in enumerate(clients)}
    top = ", ".join(names.get(p, p) for p in (final.get("ranking") or [])[:3])
    print(f"{tournament_id} {final['status']}; top of the ranking: {top}")
    return 0
