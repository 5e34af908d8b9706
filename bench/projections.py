"""Standings projections: rebuild rate (events/s, from position zero into fresh tables) against a plain read of the
same events through ``read_all`` in the same run, and live lag (an event's commit to its change on the SSE feed,
p50/p99) while bot games play through the real engine and RNG services. Medians of repeats.

    python -m bench.projections [--vortex 12] [--hockey 4] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from datetime import datetime

import aiohttp

from bench.hardware import describe, median
from services.standings.rebuild import rebuild
from shared.bus.connect import connect
from shared.eventstore import Checkpoint, EventStore
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import create_pool
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra, running_infra
from tests.integration.bots_running import BotLoad, Spec, caught_up


async def follow_feed(url: str, delays: list[float], stop: asyncio.Event) -> None:
    """Seconds from each event's recorded_at to its change arriving on the SSE feed."""
    async with aiohttp.ClientSession() as session, session.get(f"{url}/v1/feed?from=now") as response:
        async for raw in response.content:
            line = raw.decode()
            if line.startswith("data: "):
                entry = json.loads(line[6:])
                delays.append(time.time() - datetime.fromisoformat(entry["recorded_at"]).timestamp())
            if stop.is_set():
                return


async def read_rate(store: EventStore) -> tuple[float, int]:
    start, after, count = time.perf_counter(), Checkpoint(), 0
    while events := await store.read_all(after, 2000):
        count += len(events)
        after = events[-1].checkpoint
    return count / (time.perf_counter() - start), count


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100)[int(share * 100) - 1] if len(values) > 1 else values[0]


async def bench(infra: RunInfra, vortex: int, hockey: int, repeats: int) -> None:
    await apply_migrations(infra.database_url)
    services = {name: ServiceProcess(name, {**infra.env, "LOG_LEVEL": "warning"}, infra.tmp / f"{name}.log")
                for name in ("rng", "engine", "standings")}
    for service in services.values():
        service.start()
    pool = await create_pool(infra.database_url, role="league_app", max_size=20)
    nc = await connect(infra.nats_url, name="bench")
    try:
        for service in services.values():
            await asyncio.to_thread(service.wait_healthy, 60)
        store, url = EventStore(pool), services["standings"].url
        players = [f"bench-{n}" for n in range(3 * vortex + 2 * hockey)]
        specs = [Spec("vortex", 3, players=tuple(players[3 * n:3 * n + 3])) for n in range(vortex)]
        specs += [Spec("hockeydice", 2, players=tuple(players[3 * vortex + 2 * n:3 * vortex + 2 * n + 2]))
                  for n in range(hockey)]
        delays: list[float] = []
        stop = asyncio.Event()
        feed = asyncio.create_task(follow_feed(url, delays, stop))
        await asyncio.sleep(0.5)
        load = BotLoad(nc, infra.namespace, store)
        started = time.perf_counter()
        await load.start(specs)
        await load.wait(timeout=900)
        played = time.perf_counter() - started
        counters = await caught_up(url, store, timeout=120)
        stop.set()
        await asyncio.sleep(0.5)
        feed.cancel()
        print(f"  bot load: {vortex} vortex (3 seats) + {hockey} hockey games at once, {counters['events']} events"
              f" in {played:.1f}s ({counters['events'] / played:,.0f} events/s appended)")
        print(f"  live lag (commit -> SSE change), {len(delays)} feed entries: p50 {percentile(delays, 0.5) * 1000:.0f}"
              f" ms, p99 {percentile(delays, 0.99) * 1000:.0f} ms")
        rebuilds, reads = [], []
        for _ in range(repeats):
            reads.append((await read_rate(store))[0])
            report = await rebuild(store, "all", verify=False)
            rebuilds.append(report.events / report.seconds)
        ratio = median(rebuilds) / median(reads)
        print(f"  rebuild all (fold + swap, {report.events} events): {median(rebuilds):,.0f} events/s;"
              f" read_all of the same events: {median(reads):,.0f} events/s; ratio {ratio:.3f}"
              f" (medians of {repeats})")
    finally:
        await nc.drain()
        await pool.close()
        for service in services.values():
            service.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vortex", type=int, default=12)
    parser.add_argument("--hockey", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"projections: {describe()}")
    for infra in running_infra():
        asyncio.run(bench(infra, args.vortex, args.hockey, args.repeats))


if __name__ == "__main__":
    main()
