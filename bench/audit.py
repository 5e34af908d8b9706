"""Audit rate of long Phantoms seasons played through the real engine and RNG services, against plain folding of
the same events (the floor any replay pays) measured in the same run. Medians of repeats.

    python -m bench.audit [--seasons 3] [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from bench.hardware import describe, median
from bench.pg_settings import show_settings
from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.bus.connect import connect
from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import create_pool
from shared.infra.processes import ServiceProcess
from shared.play.table import Table
from tests.infra import RunInfra, running_infra
from tests.integration.play import create, play_to_end


def rate(work: object, events: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return events / median(times)


async def seasons(infra: RunInfra, count: int) -> list[tuple[str, list[RecordedEvent], list[RecordedEvent]]]:
    await apply_migrations(infra.database_url)
    services = [ServiceProcess(name, {**infra.env, "LOG_LEVEL": "warning"}, infra.tmp / f"{name}.log")
                for name in ("rng", "engine")]
    pool = await create_pool(infra.database_url, role="league_app")
    nc = await connect(infra.nats_url, name="bench", nkey_file=infra.admin_nkey)
    try:
        for service in services:
            service.start()
        for service in services:
            service.wait_healthy(60)
        store = EventStore(pool)
        played = []
        for n in range(count):
            edition = ("poti", "powerplay")[n % 2]
            game_id = await create(nc, infra.namespace, "phantoms", 4, {"edition": edition})
            await play_to_end(nc, infra.namespace, store, game_id, seed=n, max_commands=20_000)
            played.append((game_id, *await fetch_game(store, game_id)))
            print(f"  season {n + 1}/{count} ({edition}) played: {len(played[-1][1])} events", flush=True)
        return played
    finally:
        await nc.drain()
        await pool.close()
        for service in services:
            service.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"audit benchmark — {describe()}")
    for infra in running_infra(durable=True):
        show_settings(infra.database_url)
        played = asyncio.run(seasons(infra, args.seasons))
    for game_id, game_events, rng_events in played:
        events = len(game_events) + len(rng_events)
        report = audit_game(game_id, game_events, rng_events)
        assert report.verified, str(report)
        audit_rate = rate(lambda g=game_id, ge=game_events, re=rng_events: audit_game(g, ge, re), events,
                          args.repeats)
        fold_rate = rate(lambda g=game_id, ge=game_events: Table(g).apply_all(ge), len(game_events), args.repeats)
        print(f"  {game_id}: {events} events, {report.actions} actions — audit {audit_rate:,.0f} events/s, "
              f"plain fold {fold_rate:,.0f} events/s, ratio {audit_rate / fold_rate:.2f}")


if __name__ == "__main__":
    main()
