"""Engine replicas on one machine: the hot path's closed loop (``bench.loadgen``: 2-seat Hockey Championship games
through the gateway, each move a POST) against the league with 1, 2 and 3 engine replicas sharing the 64
partitions, every other service once. For each: commands/s, CPU ms per command of the engines together and of the
whole league, read from /proc over the steady window.

On a machine with fewer cores than processes this shows what replicas cost (the CPU per command of partitioned
engines, the lease upkeep) and that the load spreads, not a throughput gain: that needs a core per replica.

    python -m bench.engine_replicas [--quick] [--replicas 1,2,3] [--games 100] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.hardware import describe
from bench.hot_path import QUICK, generate, server_pids
from bench.hot_path_report import GENERATOR, cpu_ms_per_command
from bench.tournament import running_services
from shared.bus.partitions import PARTITIONS
from shared.infra.processes import SERVICES, ServiceProcess
from tests.infra import RunInfra, running_infra

FULL: dict[str, float] = {"warmup": 10, "window": 30, "paced_warmup": 0, "paced_window": 0}
SETTLE_SECONDS = 30.0


def owned(engine: ServiceProcess) -> float:
    with urllib.request.urlopen(f"{engine.url}/metrics", timeout=5) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("engine_partitions_owned "))


async def settled(engines: list[ServiceProcess]) -> list[float]:
    """Until the engines own every partition between them, an equal share each (within one)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        shares = [await asyncio.to_thread(owned, e) for e in engines]
        if sum(shares) == PARTITIONS and max(shares) - min(shares) <= 1 + PARTITIONS % len(engines):
            return shares
        if time.monotonic() > deadline:
            raise RuntimeError(f"partitions did not settle over {len(engines)} engines: {shares}")
        await asyncio.sleep(0.2)


def figures_of(phase: dict[str, Any], replicas: int, shares: list[float]) -> dict[str, Any]:
    by_process = cpu_ms_per_command(phase["cpu_s"], phase["commands"])
    by_process.pop(GENERATOR, None)
    engines = round(sum(ms for name, ms in by_process.items() if name.startswith("engine")), 3)
    return {"replicas": replicas, "partitions": shares, "commands_per_s": round(phase["rate"], 1),
            "commands": phase["commands"], "errors": phase["errors"], "engines_cpu_ms_per_command": engines,
            "league_cpu_ms_per_command": round(sum(by_process.values()), 3), "cpu_ms_by_process": by_process,
            "machine_busy_cores": round(phase["machine_busy_cores"], 2),
            "others_cores": round(phase["others_cores"], 2)}


async def one_configuration(infra: RunInfra, replicas: int, games: int, in_flight: int,
                            timing: dict[str, float]) -> dict[str, Any]:
    shared_pids = await server_pids(infra)
    async with running_services(infra, SERVICES) as services:
        extra = [ServiceProcess("engine", {**infra.env, "LOG_LEVEL": "warning"}, infra.tmp / f"engine-{n}.log")
                 for n in range(2, replicas + 1)]
        for engine in extra:
            engine.start()
        try:
            for engine in extra:
                await asyncio.to_thread(engine.wait_healthy, 60)
            shares = await settled([services["engine"], *extra])
            pids = {name: s.process.pid for name, s in services.items() if s.process} | shared_pids
            pids |= {f"engine-{n}": e.process.pid for n, e in enumerate(extra, 2) if e.process}
            result = await generate("league", services["gateway"].url, pids, games, in_flight, timing, (),
                                    infra.tmp)
        finally:
            for engine in extra:
                engine.stop()
    return figures_of(result["phases"][0], replicas, shares)


def report(rows: list[dict[str, Any]]) -> None:
    print(f"  {'engines':>7} {'partitions':>14} {'commands/s':>11} {'engines ms/cmd':>15} {'league ms/cmd':>14}"
          f" {'busy cores':>11} {'others':>7} {'errors':>7}")
    for row in rows:
        print(f"  {row['replicas']:>7} {'/'.join(f'{s:.0f}' for s in row['partitions']):>14}"
              f" {row['commands_per_s']:>11,.1f} {row['engines_cpu_ms_per_command']:>15.2f}"
              f" {row['league_cpu_ms_per_command']:>14.2f} {row['machine_busy_cores']:>11.2f}"
              f" {row['others_cores']:>7.2f} {row['errors']:>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the hot path's quick windows")
    parser.add_argument("--replicas", default="1,2,3", help="engine replica counts to run, in turn")
    parser.add_argument("--games", type=int, default=100, help="concurrent games")
    parser.add_argument("--in-flight", type=int, default=64, help="at most this many commands in flight")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    timing = QUICK if args.quick else FULL
    counts = [int(n) for n in args.replicas.split(",")]
    print(f"engine replicas benchmark — {describe()}; closed loop, {args.games} games, at most {args.in_flight}"
          f" commands in flight; every process on the same cores", flush=True)
    rows = []
    for infra in running_infra(durable=True):
        for replicas in counts:
            rows.append(asyncio.run(one_configuration(infra, replicas, args.games, args.in_flight, timing)))
            print(f"  {replicas} engine(s): {rows[-1]['commands_per_s']:,.1f} commands/s", flush=True)
    report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
