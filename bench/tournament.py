"""A Swiss tournament of 1,000 bot players through the gateway (HTTP + WebSocket), every service a real process:
commands/s, command latency p50/p99 and events/s appended, against the raw single-row INSERT rate of the same
PostgreSQL measured in the same run. ``bench.projections`` drives the same tournament through ``play``.

    python -m bench.tournament [--players 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import resource
import statistics
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import asyncpg

from bench.audit_sample import audit_sample
from bench.eventstore import insert_rate, timed
from bench.hardware import describe
from bench.pg_settings import show_settings
from shared.client.http import LeagueClient
from shared.client.tournament import play_tournament
from shared.eventstore.migrate import apply_migrations
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra, running_infra

SERVICES = ("relay", "rng", "engine", "matchmaking", "gateway")
SHORT_HOCKEY = {"periods": 1, "shots_per_period": 2}


class TimedClient(LeagueClient):
    def __init__(self, session: aiohttp.ClientSession, base_url: str, latencies: list[float]) -> None:
        super().__init__(session, base_url)
        self.latencies = latencies

    async def command(self, game_id: str, command: Any, key: str | None = None) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return await super().command(game_id, command, key)
        finally:
            self.latencies.append(time.perf_counter() - start)


ROUNDS = """
    SELECT (o.data->>'round')::int, count(*), min(o.recorded_at), max(o.recorded_at), min(e.recorded_at),
           max(e.recorded_at)
    FROM events o JOIN events e ON e.stream_id = o.stream_id AND e.type = 'engine.GameEnded'
    WHERE o.type = 'engine.GameOpened' AND o.data->>'tournament_id' = $1
    GROUP BY 1 ORDER BY 1
"""


@dataclass(frozen=True)
class Round:
    """One round as its games' streams tell it, in seconds from the organiser's start."""
    round: int
    games: int
    first_opened: float
    last_opened: float
    first_ended: float
    last_ended: float


async def rounds_of(url: str, tournament_id: str, started_at: float) -> list[Round]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(ROUNDS, tournament_id)
    finally:
        await conn.close()
    return [Round(row[0], row[1], *(t.timestamp() - started_at for t in row[2:])) for row in rows]


@dataclass(frozen=True)
class Played:
    """What one tournament run did, from the organiser's start to its last game."""
    players: int
    status: str
    rounds: int
    games: int
    seconds: float
    latencies: list[float]
    events: int
    rounds_played: list[Round]
    tournament_id: str


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def quiet_collector() -> None:
    """The bots are this process: their collector must not pause it for a quarter second now and then (measured:
    gen-2 collections of up to 290 ms over the bots' objects, which the bots' command latencies then carried), so
    what is set up stays out of its sight and it runs less often, as in every service (``shared.service.app``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def raise_file_limit(players: int) -> None:
    """Each bot holds sockets; the default limit of open files is too low for 1,000 of them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * players + 1024)), hard))


async def count_events(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM events"))
    finally:
        await conn.close()


@asynccontextmanager
async def running_services(infra: RunInfra, names: Iterable[str]) -> AsyncIterator[dict[str, ServiceProcess]]:
    """The log's tables migrated, then each named service a process of its own, healthy; all stopped after."""
    await apply_migrations(infra.database_url)
    env = {**infra.env, "LOG_LEVEL": "warning"}
    services = {name: ServiceProcess(name, env, infra.tmp / f"{name}.log") for name in names}
    try:
        for service in services.values():
            service.start()
        for service in services.values():
            await asyncio.to_thread(service.wait_healthy, 60)
        yield services
    finally:
        for service in services.values():
            service.stop()


async def play(gateway: str, database_url: str, players: int, rounds: int) -> Played:
    """Register ``players`` bots, enter them in a Swiss tournament of hockey and play it to the end."""
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=3600)) as session:
        names = [f"Bot {n:04d}" for n in range(players)]
        clients = [TimedClient(session, gateway, latencies) for _ in names]
        for chunk in range(0, players, 100):
            await asyncio.gather(*(c.register(n) for c, n in zip(clients[chunk:chunk + 100],
                                                                  names[chunk:chunk + 100], strict=True)))
        organiser = clients[0]
        tid = await organiser.create_tournament("Bench Swiss", "hockeydice",
                                                {"type": "swiss", "table_size": 2, "rounds": rounds},
                                                players, SHORT_HOCKEY)
        for chunk in range(0, players, 100):
            await asyncio.gather(*(c.enter(tid) for c in clients[chunk:chunk + 100]))
        events_before = await count_events(database_url)
        quiet_collector()
        latencies.clear()
        started, started_at = time.perf_counter(), time.time()
        await organiser.start(tid)
        games_done = 0

        def progress(_game_id: str) -> None:
            nonlocal games_done
            games_done += 1
            if games_done % 100 == 0:
                print(f"  {games_done} player-games finished ({time.perf_counter() - started:.0f}s)", flush=True)

        await asyncio.gather(*(play_tournament(c, tid, random.Random(n), on_game=progress)
                               for n, c in enumerate(clients)))
        elapsed = time.perf_counter() - started
        final = await organiser.tournament(tid)
    return Played(players=players, status=final["status"], rounds=len(final["rounds"]),
                  games=sum(len(r["tables"]) for r in final["rounds"]), seconds=elapsed, latencies=latencies,
                  events=await count_events(database_url) - events_before,
                  rounds_played=await rounds_of(database_url, tid, started_at), tournament_id=tid)


def report(played: Played) -> None:
    commands, elapsed = len(played.latencies), played.seconds
    print(f"  tournament {played.status}: {played.players} players, {played.rounds} rounds, {played.games} games"
          f" in {elapsed:.0f}s")
    print(f"  commands/s          {commands / elapsed:10,.0f}   ({commands} commands)")
    print(f"  command latency p50 {statistics.median(played.latencies) * 1000:10.1f} ms")
    print(f"  command latency p99 {percentile(played.latencies, 0.99) * 1000:10.1f} ms")
    print(f"  events/s appended   {played.events / elapsed:10,.0f}   ({played.events} events)")
    ended = 0.0
    for r in played.rounds_played:
        print(f"  round {r.round}: {r.games} games opened {r.first_opened - ended:5.1f}s after the previous round's"
              f" last end, over {r.last_opened - r.first_opened:5.1f}s; ended from {r.first_ended:6.1f}s to"
              f" {r.last_ended:6.1f}s")
        ended = r.last_ended


async def tournament(infra: RunInfra, players: int, rounds: int) -> None:
    async with running_services(infra, SERVICES) as services:
        played = await play(services["gateway"].url, infra.database_url, players, rounds)
        reference = await timed(lambda: insert_rate(infra.database_url), 3)
    report(played)
    verified, sampled = await audit_sample(infra.database_url, played.tournament_id)
    print(f"  audit sample: {verified} of {sampled} games verified")
    print(f"  raw asyncpg 1-row INSERTs/s, same server, same run (median of 3): {reference:,.0f}; "
          f"events appended / raw INSERTs = {played.events / played.seconds / reference:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    raise_file_limit(args.players)
    print(f"tournament benchmark — {describe()}; every service a separate process on the same cores")
    for infra in running_infra(durable=True):
        show_settings(infra.database_url)
        asyncio.run(tournament(infra, args.players, args.rounds))


if __name__ == "__main__":
    main()
