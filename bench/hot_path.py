"""The hot path: what one player's command costs the whole league, against the floor of one durable write.

Every service runs as its own process on durable PostgreSQL (fsync and synchronous_commit on) and nats-server; a
load generator in a process of its own speaks HTTP to the gateway (``bench.loadgen``): many concurrent 2-seat Hockey
Championship games, both seats its own players, each move a POST .../commands with an Idempotency-Key; the seat
whose turn comes finds its moves with GET /legal, or with ``--clients ws`` in the view pushed over the game's
WebSocket, which each player then watches as the play page does. It finds the sustained rate (closed loop), then
offers 25 %, 50 % and 80 % of it at a fixed pace and measures latency from each command's scheduled time. CPU per
command is read from /proc for every process over the steady window, PostgreSQL's also by the service whose login
each backend serves, and so are the wake-ups per command (the voluntary context switches of every thread), which a
machine that charges for wake-ups pays apart from the work: at a lower rate each command brings more of them. The
floor — a minimal aiohttp app doing one asyncpg INSERT per POST into the same PostgreSQL — is driven by the same
generator at the same concurrency in the same run, then paced at the league's half rate: its tail there is the
disk's. A probe (``bench.flush_probe``) counts the disk's flush stalls in every phase, and another
(``bench.reader_lag``) how far the log's readers (relay, standings) were behind the log: a rate bought by leaving
them behind would not be sustained. ``--statements`` also lists PostgreSQL's statements of the sustained window by
execution time, per command and by service (``bench.statements``).

``--without-log-readers`` leaves the relay and the standings out: the player's path alone, as when the log's readers
run on other machines (docs/scaling.md); its figures say they are not the league's.

    python -m bench.hot_path [--quick] [--games 200] [--runs 3] [--clients poll|ws] [--statements]
                             [--without-log-readers] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.floor_process import POOL_SIZE, FloorProcess
from bench.flush_probe import FlushProbe
from bench.hardware import describe
from bench.hot_path_report import LOG_READERS, medians, report, report_medians, summarise
from bench.pg_settings import describe_settings, pg_settings, postmaster_pid
from bench.proc_cpu import find_process
from bench.reader_lag import ReaderLag
from bench.statements import SETTINGS as STATEMENT_SETTINGS
from bench.statements import StatementSampler, per_command
from bench.statements import report as report_statements
from bench.targets import OPTIONS
from bench.tournament import running_services
from shared.infra.processes import SERVICES
from tests.infra import RunInfra, running_infra

FRACTIONS = (0.25, 0.5, 0.8)
CLIENTS = {"poll": "GET /legal (the figures quoted since the start)",
           "ws": "the view pushed over the game's WebSocket, which each player watches as the play page does"}
FULL: dict[str, float] = {"warmup": 15, "window": 45, "paced_warmup": 8, "paced_window": 30}
QUICK: dict[str, float] = {"warmup": 5, "window": 12, "paced_warmup": 3, "paced_window": 8}


def nats_pid(nats_url: str) -> int | None:
    port = urlsplit(nats_url).port
    return find_process("nats-server", ["-p", str(port)]) if port else None


SERVERS = {"postgres": "PostgreSQL", "nats-server": "nats-server"}


async def server_pids(infra: RunInfra) -> dict[str, int]:
    """PostgreSQL's postmaster and nats-server (named as in ``SERVERS``), those that are processes of this machine."""
    found = {"postgres": await postmaster_pid(infra.database_url), "nats-server": nats_pid(infra.nats_url)}
    return {name: pid for name, pid in found.items() if pid}


async def generate(target: str, url: str, pids: dict[str, int], games: int, in_flight: int,
                   timing: dict[str, float], fractions: tuple[float, ...], tmp: Path,
                   rates: tuple[float, ...] = (), watch: bool = False) -> dict[str, Any]:
    out = tmp / f"loadgen-{target}.json"
    argv = [sys.executable, "-m", "bench.loadgen", "--target", target, "--url", url, "--out", str(out),
            "--games", str(games), "--in-flight", str(in_flight), "--pids", json.dumps(pids),
            "--fractions", ",".join(map(str, fractions)), "--rates", ",".join(map(str, rates)),
            "--warmup", str(timing["warmup"]), "--window", str(timing["window"]),
            "--paced-warmup", str(timing["paced_warmup"]), "--paced-window", str(timing["paced_window"])]
    if watch:
        argv.append("--watch")
    process = await asyncio.create_subprocess_exec(*argv)
    if await process.wait() != 0:
        raise RuntimeError(f"the {target} load generator failed (exit {process.returncode})")
    result: dict[str, Any] = json.loads(out.read_text())
    return result


async def bench(infra: RunInfra, games: int, in_flight: int, timing: dict[str, float],
                statements: bool = False, clients: str = "poll", log_readers: bool = True) -> dict[str, Any]:
    settings = await pg_settings(infra.database_url)
    print(f"  {describe_settings(settings)}", flush=True)
    shared_pids = await server_pids(infra)
    for name, shown in SERVERS.items():
        if name not in shared_pids:
            print(f"  ({shown} is not a process of this machine that we can find: its CPU is not counted)")
    names = SERVICES if log_readers else tuple(name for name in SERVICES if name not in LOG_READERS)
    with FlushProbe(infra.tmp) as probe:
        async with running_services(infra, names) as services:
            pids = {name: s.process.pid for name, s in services.items() if s.process} | shared_pids
            print(f"  league up: {', '.join(names)}; {games} concurrent games of hockeydice {OPTIONS}; closed loop"
                  f" at most {in_flight} commands in flight, paced phases open loop over all games", flush=True)
            async with (StatementSampler(infra.database_url) if statements else nullcontext() as sampler,
                        ReaderLag(infra.database_url) as lag):
                league = await generate("league", services["gateway"].url, pids, games, in_flight, timing,
                                        FRACTIONS, infra.tmp, watch=clients == "ws")
            for phase in league["phases"]:
                phase["readers_behind"] = lag.between(*phase["window"])
    # The floor is a reference, not the league: it writes its own table as the database owner. It is also paced at
    # the league's half rate: its tail there is what the disk alone gives.
    half = next(p["rate"] for p in league["phases"] if p["phase"] == "50%")
    floor = FloorProcess("floor", {**infra.env, "DATABASE_URL": infra.database_url}, infra.tmp / "floor.log")
    floor.start()
    try:
        await asyncio.to_thread(floor.wait_healthy, 60)
        assert floor.process is not None
        floor_pids = {"floor": floor.process.pid} | ({"postgres": shared_pids["postgres"]}
                                                     if "postgres" in shared_pids else {})
        print(f"  floor up (one asyncpg INSERT per POST, pool of {POOL_SIZE}); same generator, {games} clients,"
              f" at most {in_flight} requests in flight", flush=True)
        with FlushProbe(infra.tmp) as floor_probe:
            floor_run = await generate("floor", floor.url, floor_pids, games, in_flight,
                                       timing | {"warmup": timing["paced_warmup"], "window": timing["window"] / 2},
                                       (), infra.tmp, (round(half, 1),))
    finally:
        floor.stop()
    for run, flushes in ((league, probe), (floor_run, floor_probe)):
        for phase in run["phases"]:
            phase["disk_flushes"] = flushes.between(*phase["window"])
    figures = summarise(league, floor_run, settings, describe())
    figures["clients"] = clients
    figures["log_readers_running"] = log_readers
    if sampler is not None:
        if sampler.unavailable:
            print(f"  (no PostgreSQL statements: {sampler.unavailable})")
        else:
            sustained = league["phases"][0]
            figures["statements"] = per_command(sampler.between(*sustained["window"]), sustained["commands"])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short windows: the whole run in under 3 minutes")
    parser.add_argument("--games", type=int, default=None, help="concurrent games (default 200, quick 100)")
    parser.add_argument("--in-flight", type=int, default=64,
                        help="closed loop (league and floor alike): at most this many commands in flight")
    parser.add_argument("--clients", choices=CLIENTS, default="poll",
                        help="how the seat whose turn comes learns its moves: " + "; ".join(
                            f"{name}: {what}" for name, what in CLIENTS.items()))
    parser.add_argument("--runs", type=int, default=1,
                        help="run it all this many times, each on servers of its own, and give the medians")
    parser.add_argument("--statements", action="store_true",
                        help="also list PostgreSQL's statements by execution time over the sustained window"
                             " (pg_stat_statements, loaded in the embedded PostgreSQL for the run: it costs"
                             " PostgreSQL a little CPU, so compare CPU figures with runs without it)")
    parser.add_argument("--without-log-readers", action="store_true",
                        help=f"leave out the log's readers ({', '.join(LOG_READERS)}): the player's path alone, as"
                             " when they run on other machines; not the league's figures, which include them")
    parser.add_argument("--json", type=Path, help="write the figures to this file (with --runs, the medians and"
                                                  " every run's figures)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    timing = QUICK if args.quick else FULL
    games = args.games or (100 if args.quick else 200)
    print(f"hot path benchmark — {describe()}; every service a separate process on the same cores; the load"
          " generator is a separate process speaking HTTP/1.1 (aiohttp client, keep-alive) to the gateway; the next"
          f" seat to move learns its moves by {CLIENTS[args.clients]}", flush=True)
    runs = []
    for run in range(1, args.runs + 1):
        if args.runs > 1:
            print(f"run {run} of {args.runs}", flush=True)
        for infra in running_infra(durable=True, pg_settings=STATEMENT_SETTINGS if args.statements else ()):
            figures = asyncio.run(bench(infra, games, args.in_flight, timing, args.statements, args.clients,
                                        not args.without_log_readers))
        figures["quick"] = args.quick
        report(figures)
        if "statements" in figures:
            report_statements(figures["statements"], "the sustained window")
        runs.append(figures)
    if len(runs) > 1:
        figures = medians(runs)
        report_medians(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
