"""``bench.hot_path --statements``: PostgreSQL's statements of one window, from a real server started with
pg_stat_statements loaded, named by the service whose login ran them; a server without it says why."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncpg

from bench.statements import SETTINGS, StatementSampler, per_command
from shared.eventstore.roles import group_role, login_name
from shared.infra.embedded_postgres import EmbeddedPostgres

INTERVAL = 0.05


async def run_as_engine(url: str, login: str, times: int) -> None:
    """As the engine's login switched to its group role, as every service's session is."""
    conn = await asyncpg.connect(url.replace("postgres:secret@", f"{login}:pw@"))
    try:
        await conn.execute(f"SET ROLE {group_role('engine')}")
        for n in range(times):
            await conn.fetchval("SELECT count(*) FROM moves WHERE n > $1", n)
    finally:
        await conn.close()


async def test_a_window_gets_the_statements_run_inside_it_by_service(tmp_path: Path) -> None:
    server = EmbeddedPostgres(tmp_path / "postgres", durable=False, password="secret", settings=SETTINGS)
    try:
        url = server.start()
        owner = await asyncpg.connect(url)
        try:
            login = login_name("engine", "postgres")
            await owner.execute(f"CREATE ROLE {group_role('engine')} NOLOGIN")
            await owner.execute(f"CREATE ROLE {login} LOGIN PASSWORD 'pw' IN ROLE {group_role('engine')}")
            await owner.execute("CREATE TABLE moves (n int)")
            await owner.execute(f"GRANT SELECT ON moves TO {group_role('engine')}")
        finally:
            await owner.close()
        async with StatementSampler(url, interval=INTERVAL) as sampler:
            assert sampler.unavailable is None
            await run_as_engine(url, login, 3)  # before the window: not counted in it
            await asyncio.sleep(3 * INTERVAL)
            start = time.perf_counter()
            await run_as_engine(url, login, 5)
            end = time.perf_counter()
            await asyncio.sleep(3 * INTERVAL)
        statements = sampler.between(start, end)
        moves = [s for s in statements if "FROM moves" in s.text]
        assert [(s.service, s.calls, s.rows, s.nested) for s in moves] == [("engine", 5, 5, False)]
        assert moves[0].text == "SELECT count(*) FROM moves WHERE n > $1"
        assert not any("pg_stat_statements" in s.text for s in statements)  # the sampler's own are left out
        [row] = [r for r in per_command(statements, commands=10) if "FROM moves" in r["statement"]]
        assert row["calls_per_command"] == 0.5 and row["rows_per_call"] == 1.0 and 0 < row["share"] <= 1
    finally:
        server.stop()


async def test_a_server_without_the_library_is_named_as_the_reason(tmp_path: Path) -> None:
    server = EmbeddedPostgres(tmp_path / "postgres", durable=False, password="secret")
    try:
        async with StatementSampler(server.start()) as sampler:
            pass
        assert sampler.unavailable == "pg_stat_statements is not in the server's shared_preload_libraries"
        assert sampler.samples == [] and sampler.between(0.0, time.perf_counter()) == []
    finally:
        server.stop()
