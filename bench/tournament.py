"""A Swiss tournament of 1,000 bot players through the gateway (HTTP + WebSocket), every service a real process:
commands/s, command latency p50/p99 and events/s appended, against the raw single-row INSERT rate of the same
PostgreSQL measured in the same run.

    python -m bench.tournament [--players 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import time
from typing import Any

import aiohttp
import asyncpg

from bench.eventstore import insert_rate, timed
from bench.hardware import describe
from shared.client.http import LeagueClient
from shared.client.tournament import play_tournament
from shared.eventstore.migrate import apply_migrations
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra, running_infra

SERVICES = ("relay", "rng", "engine", "matchmaking", "gateway")
SHORT_HOCKEY = {"periods": 1, "shots_per_period": 2}


class TimedClient(LeagueClient):
    latencies: list[float] = []

    async def command(self, game_id: str, command: Any, key: str | None = None) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return await super().command(game_id, command, key)
        finally:
            TimedClient.latencies.append(time.perf_counter() - start)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def count_events(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM events"))
    finally:
        await conn.close()


async def tournament(infra: RunInfra, players: int, rounds: int) -> None:
    await apply_migrations(infra.database_url)
    env = {**infra.env, "LOG_LEVEL": "warning"}
    services = {name: ServiceProcess(name, env, infra.tmp / f"{name}.log") for name in SERVICES}
    for service in services.values():
        service.start()
    try:
        for service in services.values():
            service.wait_healthy(60)
        gateway = services["gateway"].url
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=3600)) as session:
            names = [f"Bot {n:04d}" for n in range(players)]
            clients = [TimedClient(session, gateway) for _ in names]
            for chunk in range(0, players, 100):
                await asyncio.gather(*(c.register(n) for c, n in zip(clients[chunk:chunk + 100],
                                                                      names[chunk:chunk + 100], strict=True)))
            organiser = clients[0]
            tid = await organiser.create_tournament("Bench Swiss", "hockeydice",
                                                    {"type": "swiss", "table_size": 2, "rounds": rounds},
                                                    players, SHORT_HOCKEY)
            for chunk in range(0, players, 100):
                await asyncio.gather(*(c.enter(tid) for c in clients[chunk:chunk + 100]))
            events_before = await count_events(infra.database_url)
            TimedClient.latencies.clear()
            started = time.perf_counter()
            await organiser.start(tid)
            games_done = 0

            def progress(_game_id: str) -> None:
                nonlocal games_done
                games_done += 1
                if games_done % 100 == 0:
                    print(f"  {games_done} player-games finished "
                          f"({time.perf_counter() - started:.0f}s)", flush=True)

            await asyncio.gather(*(play_tournament(c, tid, random.Random(n), on_game=progress)
                                   for n, c in enumerate(clients)))
            elapsed = time.perf_counter() - started
            final = await organiser.tournament(tid)
        events = await count_events(infra.database_url) - events_before
        reference = await timed(lambda: insert_rate(infra.database_url), 3)
    finally:
        for service in services.values():
            service.stop()
    commands = len(TimedClient.latencies)
    print(f"  tournament {final['status']}: {players} players, {len(final['rounds'])} rounds, "
          f"{sum(len(r['tables']) for r in final['rounds'])} games in {elapsed:.0f}s")
    print(f"  commands/s          {commands / elapsed:10,.0f}   ({commands} commands)")
    print(f"  command latency p50 {statistics.median(TimedClient.latencies) * 1000:10.1f} ms")
    print(f"  command latency p99 {percentile(TimedClient.latencies, 0.99) * 1000:10.1f} ms")
    print(f"  events/s appended   {events / elapsed:10,.0f}   ({events} events)")
    print(f"  raw asyncpg 1-row INSERTs/s, same server, same run (median of 3): {reference:,.0f}; "
          f"events appended / raw INSERTs = {events / elapsed / reference:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * args.players + 1024)), hard))
    print(f"tournament benchmark — {describe()}; every service a separate process on the same cores")
    for infra in running_infra():
        asyncio.run(tournament(infra, args.players, args.rounds))


if __name__ == "__main__":
    main()
