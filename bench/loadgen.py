"""The load generator, a process of its own (so its CPU is counted apart from the league's): it speaks HTTP to a
gateway (or to the floor app) with one aiohttp session of keep-alive connections, keeps ``--games`` tables busy
(a finished game is replaced by a new one at once), first closed-loop to find the sustained rate, then paced at
fractions of it (or at given rates). For each phase it writes commands, latencies, the CPU seconds of the processes
it was given and its window on the monotonic clock (``time.perf_counter``, the same in every process).

    python -m bench.loadgen --target league --url http://127.0.0.1:PORT --out result.json [--watch]
        [--pids '{"engine": 1}']
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import time
from collections.abc import Mapping
from typing import Any

import aiohttp

from bench.pacer import ClosedLoop, Paced, Pacer
from bench.percentiles import summary_ms
from bench.proc_cpu import (
    all_stats,
    machine_busy_seconds,
    postgres_by_service,
    sample,
    sample_postgres,
    sample_wakeups,
    wakeups_between,
)
from bench.targets import Counts, FloorTarget, Http, LeagueTarget, Table, Target

SETUP_CONCURRENCY = 32


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(coro: Any) -> Any:
        async with gate:
            return await coro

    return await asyncio.gather(*(one(c) for c in coros))


@dataclasses.dataclass
class Window:
    open: bool = False
    from_scheduled: list[float] = dataclasses.field(default_factory=list)
    from_sent: list[float] = dataclasses.field(default_factory=list)


async def drive(table: Table, target: Target, pacer: Pacer, window: Window, stopping: asyncio.Event,
                counts: Counts) -> None:
    while not stopping.is_set():
        try:
            if not await target.ready(table):
                continue
            scheduled = await pacer.slot()
            if scheduled is None or stopping.is_set():
                return
            sent = time.perf_counter()
            try:
                ok = await target.send(table)
            finally:
                pacer.done()
        except (TimeoutError, aiohttp.ClientError) as error:
            counts.errors += 1
            print(f"  loadgen: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
            table.moves = None
            await asyncio.sleep(0.2)
            continue
        done = time.perf_counter()
        if ok and window.open:
            window.from_scheduled.append(done - scheduled)
            window.from_sent.append(done - sent)


async def phase(name: str, pacer: Pacer, tables: list[Table], target: Target, counts: Counts,
                roots: Mapping[str, int], warmup: float, seconds: float) -> dict[str, Any]:
    window, stopping = Window(), asyncio.Event()
    pacer.start()
    tasks = [asyncio.create_task(drive(t, target, pacer, window, stopping, counts)) for t in tables]
    await asyncio.sleep(warmup)
    stats = all_stats()
    before, cpu_before, started = dataclasses.replace(counts), sample(roots, stats), time.perf_counter()
    pg_before = sample_postgres(roots["postgres"], stats) if "postgres" in roots else None
    wakeups_before = sample_wakeups(roots, stats)
    busy_before = machine_busy_seconds()
    window.open = True
    await asyncio.sleep(seconds)
    window.open = False
    stats = all_stats()
    after, cpu_after, elapsed = dataclasses.replace(counts), sample(roots, stats), time.perf_counter() - started
    pg_after = sample_postgres(roots["postgres"], stats) if "postgres" in roots else None
    wakeups = wakeups_between(wakeups_before, sample_wakeups(roots, stats))
    busy = machine_busy_seconds() - busy_before
    stopping.set()
    pacer.stop(len(tasks))
    _, late = await asyncio.wait(tasks, timeout=30)
    for task in late:
        task.cancel()
    delta = {f.name: getattr(after, f.name) - getattr(before, f.name) for f in dataclasses.fields(Counts)}
    result = {"phase": name, "offered_per_s": pacer.rate, "seconds": elapsed, "window": [started, started + elapsed],
              "rate": delta["commands"] / elapsed, **delta,
              "latency_from_scheduled": summary_ms(window.from_scheduled),
              "latency_from_sent": summary_ms(window.from_sent),
              "cpu_s": {k: cpu_after[k] - cpu_before[k] for k in roots}, "wakeups": wakeups,
              "machine_busy_cores": busy / elapsed}
    result["others_cores"] = max(0.0, busy - sum(result["cpu_s"].values())) / elapsed
    if pg_before is not None and pg_after is not None:
        result["postgres_cpu_s_by_service"] = postgres_by_service(pg_before, pg_after)
    offered = f"offered {pacer.rate:.0f}/s, " if pacer.rate else ""
    print(f"  loadgen {target.name} {name}: {offered}{result['rate']:.1f} commands/s over {elapsed:.1f}s, p50"
          f" {result['latency_from_scheduled']['p50_ms']} ms, errors {delta['errors']}", file=sys.stderr, flush=True)
    return result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    counts = Counts()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as session:
        http = Http(session, args.url)
        target: Target = (LeagueTarget(http, counts, watch=args.watch) if args.target == "league"
                          else FloorTarget(http, counts))
        tables = await gather_limited([target.table(n) for n in range(args.games)], SETUP_CONCURRENCY)
        if isinstance(target, LeagueTarget):
            await gather_limited([target.open(t) for t in tables], SETUP_CONCURRENCY)
        roots = {**json.loads(args.pids), "generator": os.getpid()}
        closed = ClosedLoop(args.in_flight)
        phases = [await phase("sustained", closed, tables, target, counts, roots, args.warmup, args.window)]
        if not phases[0]["commands"]:
            raise RuntimeError(f"no {target.name} command was answered in the sustained window: nothing to pace")
        paced = [(f"{share:.0%}", share * phases[0]["rate"]) for share in args.fractions]
        paced += [(f"{rate:.1f}/s", rate) for rate in args.rates]
        for name, rate in paced:
            phases.append(await phase(name, Paced(rate), tables, target, counts, roots, args.paced_warmup,
                                      args.paced_window))
        if isinstance(target, LeagueTarget):
            await asyncio.gather(*(target.unwatch(t) for t in tables))
    return {"target": args.target, "games": args.games, "in_flight": args.in_flight, "phases": phases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=("league", "floor"), required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--games", type=int, default=200, help="concurrent games (floor: concurrent requests)")
    parser.add_argument("--in-flight", type=int, default=64, help="closed loop: at most this many commands at once")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--window", type=float, default=30)
    parser.add_argument("--fractions", type=lambda s: [float(x) for x in s.split(",") if x], default=[])
    parser.add_argument("--rates", type=lambda s: [float(x) for x in s.split(",") if x], default=[],
                        help="then also paced at these rates (commands/s), whatever the sustained rate")
    parser.add_argument("--paced-warmup", type=float, default=5)
    parser.add_argument("--paced-window", type=float, default=20)
    parser.add_argument("--watch", action="store_true",
                        help="league: each player watches its game over the WebSocket (as the play page does) and"
                             " takes its moves from the pushed views instead of GET /legal")
    parser.add_argument("--pids", default="{}", help="JSON {name: pid}: process trees whose CPU to sample")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    with open(args.out, "w") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
