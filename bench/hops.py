"""What one hop between processes costs a command: the floor (``bench.floor_app``: aiohttp, one asyncpg INSERT per
POST) against the same request carried over one NATS request/reply to a second process that does the INSERT
(``bench.hop_app``), each on asyncio's loop and on uvloop, driven by ``bench.loadgen`` (HTTP, closed loop) on
durable PostgreSQL and the run's nats-server. The variants take turns, run after run, so a slow spell of the machine
falls on all of them; it prints each one's medians. A league command crosses such a hop from the gateway to the
engine: the difference is what putting them in one process could save (DESIGN.md keeps them apart).

    python -m bench.hops [--runs 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from bench.floor_process import FloorProcess
from bench.hardware import describe
from bench.hot_path import generate, server_pids
from bench.hot_path_report import GENERATOR, cpu_ms_per_command
from bench.pg_settings import describe_settings, pg_settings
from tests.infra import RunInfra, running_infra

CLIENTS, IN_FLIGHT = 100, 64
TIMING = {"warmup": 3.0, "window": 8.0, "paced_warmup": 0.0, "paced_window": 0.0}
VARIANTS = [("floor", "asyncio"), ("hop", "asyncio"), ("floor", "uvloop"), ("hop", "uvloop")]


def wait_for_line(path: Path, line: str, process: FloorProcess, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.process is None or process.process.poll() is not None:
            raise RuntimeError(f"{process.name} exited; see {path}")
        if path.exists() and line in path.read_text():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{process.name} did not say {line!r} within {timeout}s; see {path}")


async def one(infra: RunInfra, kind: str, loop: str, shared_pids: dict[str, int], run: int) -> dict[str, Any]:
    env = {**infra.env, "DATABASE_URL": infra.database_url, "NATS_URL": infra.nats_url,
           "NATS_NKEY_FILE": infra.admin_nkey, "NATS_SUBJECT": f"{infra.namespace.prefix}.bench.hop",
           "EVENT_LOOP": loop}
    name = f"{kind}-{loop}-{run}"
    started: list[FloorProcess] = []
    try:
        if kind == "hop":
            back = FloorProcess("back", env, infra.tmp / f"{name}-back.log", module=("bench.hop_app", "back"))
            back.start()
            started.append(back)
            await asyncio.to_thread(wait_for_line, infra.tmp / f"{name}-back.log", "back ready", back)
            front = FloorProcess("front", env, infra.tmp / f"{name}-front.log", module=("bench.hop_app", "front"))
        else:
            front = FloorProcess("floor", env, infra.tmp / f"{name}.log")
        front.start()
        started.append(front)
        await asyncio.to_thread(front.wait_healthy, 60)
        pids = {p.name: p.process.pid for p in started if p.process} | shared_pids
        result = await generate("floor", front.url, pids, CLIENTS, IN_FLIGHT, TIMING, (), infra.tmp)
    finally:
        for process in reversed(started):
            process.stop()
    phase = result["phases"][0]
    by_process = cpu_ms_per_command(phase["cpu_s"], phase["commands"])
    generator = by_process.pop(GENERATOR)
    figures = {"requests_per_s": round(phase["rate"], 1), "cpu_ms_per_request": round(sum(by_process.values()), 3),
               "cpu_ms_by_process": by_process, "generator_cpu_ms_per_request": generator,
               "p50_ms": phase["latency_from_sent"]["p50_ms"], "others_cores": round(phase["others_cores"], 2)}
    print(f"  run {run} {kind:5} on {loop:7}: {figures['requests_per_s']:7.1f} requests/s, CPU"
          f" {figures['cpu_ms_per_request']:.3f} ms a request ({by(by_process)}; generator {generator:.3f} apart),"
          f" p50 {figures['p50_ms']:.1f} ms, others {figures['others_cores']} cores", flush=True)
    return figures


def by(processes: dict[str, float]) -> str:
    return ", ".join(f"{name} {ms:.3f}" for name, ms in processes.items())


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    processes = sorted({name for run in runs for name in run["cpu_ms_by_process"]})
    return {"requests_per_s": statistics.median(r["requests_per_s"] for r in runs),
            "cpu_ms_per_request": round(statistics.median(r["cpu_ms_per_request"] for r in runs), 3),
            "cpu_ms_by_process": {name: round(statistics.median(r["cpu_ms_by_process"].get(name, 0.0) for r in runs), 3)
                                  for name in processes},
            "runs": runs}


async def bench(infra: RunInfra, runs: int) -> dict[str, Any]:
    settings = await pg_settings(infra.database_url)
    print(f"  {describe_settings(settings)}", flush=True)
    shared_pids = await server_pids(infra)
    print(f"  same generator for all: {CLIENTS} clients, at most {IN_FLIGHT} requests in flight, closed loop,"
          f" {TIMING['warmup']:g} s warm-up, {TIMING['window']:g} s window", flush=True)
    measured: dict[str, list[dict[str, Any]]] = {f"{kind}/{loop}": [] for kind, loop in VARIANTS}
    for run in range(1, runs + 1):
        for kind, loop in VARIANTS:
            measured[f"{kind}/{loop}"].append(await one(infra, kind, loop, shared_pids, run))
    figures: dict[str, Any] = {"hardware": describe(), "postgres_settings": settings,
                               "variants": {name: median_of(each) for name, each in measured.items()}}
    print(f"  medians of {runs} runs:")
    for name, variant in figures["variants"].items():
        print(f"    {name:13} {variant['requests_per_s']:7.1f} requests/s, CPU {variant['cpu_ms_per_request']:.3f} ms a"
              f" request ({by(variant['cpu_ms_by_process'])})")
    for loop in ("asyncio", "uvloop"):
        floor, hop = figures["variants"][f"floor/{loop}"], figures["variants"][f"hop/{loop}"]
        extra = round(hop["cpu_ms_per_request"] - floor["cpu_ms_per_request"], 3)
        ratio = round(hop["requests_per_s"] / floor["requests_per_s"], 3)
        figures[f"hop_cpu_ms_{loop}"], figures[f"hop_rate_ratio_{loop}"] = extra, ratio
        print(f"  one NATS hop on {loop}: +{extra:.3f} ms of CPU a request"
              f" ({extra / floor['cpu_ms_per_request']:.0%} of the floor's), {ratio:.3f} × the floor's rate")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of every variant, taking turns (medians shown)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print(f"hop benchmark — {describe()}; the load generator is a separate process speaking HTTP/1.1 (aiohttp client,"
          " keep-alive)", flush=True)
    for infra in running_infra(durable=True):
        figures = asyncio.run(bench(infra, args.runs))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
