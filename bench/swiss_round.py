"""One Swiss round of a 10,000-player tournament: 5,000 tables of 2-seat Hockey Championship, every player a bot the
engine plays (``RegisterPlayer.bot``), so no client process stands between the league and its own limit. Prints
how long the round took to open and to finish, the engine's memory per game it holds, and samples the audit.

    python -m bench.swiss_round [--players 10000] [--quick] [--statements]

It also prints each process's CPU over the round (from /proc) and how long after the round the standings service
(which folds the tournament's leaderboard live beside it) had folded the whole log.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import urllib.request
from contextlib import nullcontext

import asyncpg
import msgspec
from nats.aio.client import Client

from bench.audit_sample import audit_sample
from bench.hardware import describe
from bench.hot_path import server_pids
from bench.pg_settings import show_settings
from bench.proc_cpu import sample
from bench.statements import SETTINGS as STATEMENT_SETTINGS
from bench.statements import StatementSampler, per_command
from bench.statements import report as report_statements
from bench.tournament import SHORT_HOCKEY, rounds_of, running_services
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from shared.messages.tournaments import (
    CreateTournamentRequest,
    RegisterPlayer,
    StartTournament,
    TournamentRef,
    tournament_stream,
)
from shared.tournaments.formats import Swiss
from shared.tournaments.view import TournamentView
from tests.infra import RunInfra, running_infra
from tests.integration.bots_running import caught_up

SERVICES = ("relay", "rng", "engine", "matchmaking", "standings")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def metric(url: str, name: str) -> float:
    with urllib.request.urlopen(f"{url}/metrics", timeout=5) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


async def register_all(nc: Client, ns: Namespace, tid: str, players: int) -> None:
    subject = ns.command("matchmaking", "register")
    done = 0
    for chunk in range(0, players, 500):
        await asyncio.gather(*(request(nc, subject, RegisterPlayer(tournament_id=tid, player_id=f"bot-{n:05d}",
                                                                   bot="random"), TournamentRef, timeout=120)
                               for n in range(chunk, min(players, chunk + 500))))
        done = min(players, chunk + 500)
        print(f"  {done} players registered", flush=True)


async def progress(url: str, tournament_id: str) -> tuple[int, int, bool]:
    """Games opened and ended, and whether the tournament has finished, as the log says."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT count(*) FILTER (WHERE type = 'engine.GameOpened'),"
            " count(*) FILTER (WHERE type = 'engine.GameEnded') FROM events WHERE stream_id IN"
            " (SELECT stream_id FROM events WHERE type = 'engine.GameOpened' AND data->>'tournament_id' = $1)",
            tournament_id)
        finished = await conn.fetchval("SELECT count(*) FROM events WHERE stream_id = $1"
                                       " AND type = 'tournament.TournamentFinished'", tournament_stream(tournament_id))
    finally:
        await conn.close()
    return row[0], row[1], bool(finished)


async def swiss_round(infra: RunInfra, players: int, statements: bool = False) -> None:
    async with (running_services(infra, SERVICES) as services,
                StatementSampler(infra.database_url) if statements else nullcontext() as sampler):
        engine = services["engine"]
        assert engine.process is not None
        nc = await connect(infra.nats_url, name="bench", nkey_file=infra.admin_nkey)
        ns = infra.namespace
        try:
            created = await request(nc, ns.command("matchmaking", "create"), CreateTournamentRequest(
                name="Bench Swiss round", game="hockeydice", format=Swiss(table_size=2, rounds=1),
                max_players=players, options=msgspec.Raw(msgspec.json.encode(SHORT_HOCKEY))), TournamentRef)
            tid = created.tournament_id
            await register_all(nc, ns, tid, players)
            rss_before = rss_kb(engine.process.pid)
            pids = {name: service.process.pid for name, service in services.items() if service.process}
            pids |= await server_pids(infra)
            cpu_before = sample(pids)
            started, started_at = time.perf_counter(), time.time()
            try:
                await request(nc, ns.command("matchmaking", "start"), StartTournament(tournament_id=tid),
                              TournamentView, timeout=300)
            except RejectedError as error:
                if error.code != "reply.too-large":  # the start is made; only its whole view cannot travel back
                    raise
            peak_games, peak_rss = 0.0, rss_before
            while True:
                opened, ended, finished = await progress(infra.database_url, tid)
                games = metric(engine.url, "engine_games_in_memory")
                if games > peak_games:
                    peak_games, peak_rss = games, rss_kb(engine.process.pid)
                elapsed = time.perf_counter() - started
                print(f"  {elapsed:6.1f}s: {opened} games opened, {ended} ended; engine holds {games:.0f} games,"
                      f" engine RSS {rss_kb(engine.process.pid) / 1024:.0f} MB", flush=True)
                if finished:
                    break
                await asyncio.sleep(5)
            wall = time.perf_counter() - started
            loads = metric(engine.url, "engine_game_loads")
            cpu = {name: seconds - cpu_before[name] for name, seconds in sample(pids).items()}
            pool = await create_pool(infra.database_url, max_size=2)
            try:
                await caught_up(services["standings"].url, EventStore(pool), timeout=1800)
            finally:
                await pool.close()
            behind = time.perf_counter() - started - wall
            caught = time.perf_counter()
        finally:
            await nc.close()
        rounds = await rounds_of(infra.database_url, tid, started_at)
        verified, sampled = await audit_sample(infra.database_url, tid)
        conn = await asyncpg.connect(infra.database_url)
        try:
            commands = await conn.fetchval(
                "SELECT count(*) FROM events a JOIN events o ON o.stream_id = a.stream_id AND o.version = 1"
                " WHERE a.type = 'engine.CommandAccepted' AND o.data->>'tournament_id' = $1", tid)
        finally:
            await conn.close()
    r = rounds[0]
    per_game = (peak_rss - rss_before) * 1024 / peak_games if peak_games else float("nan")
    print(f"  round of {r.games} tables ({players} players): opened over {r.last_opened - r.first_opened:.1f}s"
          f" ({r.last_opened:.1f}s after the start), all ended {r.last_ended:.1f}s after the start;"
          f" wall time to 'finished' {wall:.1f}s")
    print(f"  bot commands played by the engine: {commands} ({commands / r.last_ended:,.0f}/s over the round)")
    print(f"  engine memory per game held: {per_game / 1024:.1f} KB ({peak_games:.0f} games,"
          f" RSS {rss_before / 1024:.0f} -> {peak_rss / 1024:.0f} MB)")
    print(f"  games the engine read from the log (not in memory): {loads:.0f}, {loads / r.games:.2f} a table")
    print("  CPU seconds over the round (to 'finished'), by process: "
          + ", ".join(f"{name} {seconds:.0f}" for name, seconds in sorted(cpu.items(), key=lambda kv: -kv[1])))
    print(f"  standings had folded the whole log {behind:.1f}s after 'finished'")
    print(f"  audit sample: {verified} of {sampled} games verified")
    if sampler is not None:
        if sampler.unavailable:
            print(f"  (no PostgreSQL statements: {sampler.unavailable})")
        else:
            report_statements(per_command(sampler.between(started, caught), commands),
                              "the round and the standings' catch-up (per bot command)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="1,000 players")
    parser.add_argument("--statements", action="store_true",
                        help="also list PostgreSQL's statements by execution time over the round and the standings'"
                             " catch-up (pg_stat_statements, loaded in the embedded PostgreSQL for the run)")
    args = parser.parse_args()
    players = 1000 if args.quick else args.players
    print(f"Swiss round benchmark — {describe()}; every service a separate process on the same cores")
    for infra in running_infra(durable=True, pg_settings=STATEMENT_SETTINGS if args.statements else ()):
        show_settings(infra.database_url)
        asyncio.run(swiss_round(infra, players, args.statements))


if __name__ == "__main__":
    main()
