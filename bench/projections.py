"""Standings projections under the Swiss tournament of ``bench.tournament`` (1,000 bots through the gateway, every
service a real process), standings running beside it:

- live lag while the tournament plays: each event's append (its ``recorded_at``) to its change on the SSE feed
  (p50/p99, seconds), and the service's own ``/metrics`` gauges sampled once a second (events not yet folded, age
  of the oldest; p50/p99), both watched from a separate process (``bench.live_lag``);
- then the rate of ``league rebuild all`` (``services.standings.rebuild``: fold from position zero into fresh tables,
  compare them row by row with the serving ones, swap) over the log the tournament left, and the same without the
  comparison, against two reads of the same events in the same run: ``EventStore.read_all`` and raw asyncpg running
  its query without decoding. Medians of repeats.

    python -m bench.projections [--players 1000] [--rounds 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from functools import partial

import asyncpg

from bench.hardware import describe, median
from bench.live_lag import Lags, Watcher
from bench.pg_settings import show_settings
from bench.tournament import SERVICES, percentile, play, raise_file_limit, report, running_services
from services.standings.rebuild import rebuild
from shared.eventstore import Checkpoint, EventStore
from shared.eventstore.pool import create_pool
from shared.eventstore.store import READ_ALL
from tests.infra import RunInfra, running_infra
from tests.integration.bots_running import caught_up

BATCH = 2000
"""events a read asks for at once, as the rebuild does"""


async def read_all(store: EventStore) -> int:
    after, count = Checkpoint(), 0
    while events := await store.read_all(after, BATCH):
        count += len(events)
        after = events[-1].checkpoint
    return count


async def raw_read(database_url: str) -> int:
    """``read_all``'s own query, keyset-paged the same way, the rows left as asyncpg returns them."""
    conn = await asyncpg.connect(database_url)
    try:
        tx, position, count = 0, 0, 0
        while rows := await conn.fetch(READ_ALL, tx, position, BATCH):
            count += len(rows)
            tx, position = rows[-1]["tx"], rows[-1]["position"]
        return count
    finally:
        await conn.close()


def show_lag(what: str, values: list[float], unit: str, scale: float = 1.0) -> None:
    if not values:
        print(f"  {what}: nothing seen")
        return
    print(f"  {what}: p50 {percentile(values, 0.5) * scale:,.1f} {unit}, p99 {percentile(values, 0.99) * scale:,.1f}"
          f" {unit}, max {max(values) * scale:,.1f} {unit} ({len(values)} samples)")


def show_lags(lags: Lags) -> None:
    print("  live lag of the standings service while the tournament played:")
    show_lag("  event appended (its recorded_at) -> change on the SSE feed", lags.feed_seconds, "ms", 1000)
    show_lag("  /metrics standings_lag_events, sampled each second", lags.gauge_events, "events")
    show_lag("  /metrics standings_lag_seconds, sampled each second", lags.gauge_seconds, "ms", 1000)


async def rebuild_rates(infra: RunInfra, store: EventStore, repeats: int) -> None:
    rates: dict[str, list[float]] = {"raw": [], "read_all": [], "rebuild": [], "fold": []}
    events = 0
    for _ in range(repeats):
        for name, work in (("raw", partial(raw_read, infra.database_url)), ("read_all", partial(read_all, store))):
            start = time.perf_counter()
            count = await work()
            rates[name].append(count / (time.perf_counter() - start))
        full = await rebuild(store, "all")  # as `league rebuild all` runs it; refuses to swap unequal tables
        rates["rebuild"].append(full.events / full.seconds)
        fold = await rebuild(store, "all", verify=False)
        rates["fold"].append(fold.events / fold.seconds)
        events = full.events
    rebuilt, folded, read, raw = (median(rates[n]) for n in ("rebuild", "fold", "read_all", "raw"))
    print(f"  rebuild over the tournament's log ({events} events, medians of {repeats}):")
    print(f"    league rebuild all (fold, row-by-row compare, swap) {rebuilt:10,.0f} events/s")
    print(f"    rebuild all without the compare (fold, swap)        {folded:10,.0f} events/s")
    print(f"    EventStore.read_all of the same events               {read:10,.0f} events/s")
    print(f"    raw asyncpg, read_all's query, same pages            {raw:10,.0f} events/s")
    print(f"    league rebuild all / read_all = {rebuilt / read:.3f}; / raw asyncpg = {rebuilt / raw:.3f}")


async def bench(infra: RunInfra, players: int, rounds: int, repeats: int) -> None:
    async with running_services(infra, (*SERVICES, "standings")) as services:
        pool = await create_pool(infra.database_url, role="league_standings" if infra.logins else "league_app",
                                 max_size=20)
        try:
            store, url = EventStore(pool), services["standings"].url
            watcher = Watcher(url)
            await watcher.start()
            try:
                played = await play(services["gateway"].url, infra.database_url, players, rounds)
                started = time.perf_counter()
                await caught_up(url, store, timeout=900)
                behind = time.perf_counter() - started
                await asyncio.sleep(1.0)  # the last folds' changes reach the feed
            except BaseException:
                watcher.kill()
                raise
            lags = await watcher.stop()
            report(played)
            print(f"  standings caught up with the log {behind:.1f}s after the last game")
            show_lags(lags)
            for name in SERVICES:  # the log is complete: only standings serves on, beside the rebuilds
                services[name].stop()
            await rebuild_rates(infra, store, repeats)
        finally:
            await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    raise_file_limit(args.players)
    print(f"projections benchmark — {describe()}; every service a separate process on the same cores")
    for infra in running_infra(durable=True):
        show_settings(infra.database_url)
        asyncio.run(bench(infra, args.players, args.rounds, args.repeats))


if __name__ == "__main__":
    main()
