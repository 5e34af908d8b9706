"""``bench.hot_path``'s PostgreSQL CPU by service: a real server's backends told apart by the login they serve."""

from __future__ import annotations

import asyncpg
import pytest

from bench.pg_settings import postmaster_pid
from bench.proc_cpu import all_stats, postgres_by_service, sample_postgres
from shared.eventstore.roles import login_file, read_login, url_with_login
from tests.infra import RunInfra

WORK = "SELECT count(*) FROM generate_series(1, 3000000) AS n WHERE n % 7 = 3"


async def test_a_backends_cpu_counts_for_the_service_whose_login_it_serves(migrated: RunInfra) -> None:
    if not migrated.logins:
        pytest.skip("the owner may not make the services' logins here")
    postmaster = await postmaster_pid(migrated.database_url)
    if postmaster is None:
        pytest.skip("PostgreSQL is not a process of this machine")
    login = read_login(login_file(migrated.secrets_dir, "engine"))
    conn = await asyncpg.connect(url_with_login(migrated.database_url, login))
    try:
        await conn.execute(f"SET ROLE {login.role}")
        backend = int(await conn.fetchval("SELECT pg_backend_pid()"))
        before = sample_postgres(postmaster, all_stats())
        assert before.backends[backend][0] == "engine"
        await conn.fetchval(WORK)
        after = sample_postgres(postmaster, all_stats())
    finally:
        await conn.close()
    mine = after.backends[backend][1] - before.backends[backend][1]
    spent = postgres_by_service(before, after)
    # Other tests' backends of a shared server may add to any service; this backend's work must be the engine's
    # (summed in another order: 0.32 came back as 0.31999999999999984 once).
    assert mine >= 0.05 and spent["engine"] >= mine - 1e-9, (mine, spent)
