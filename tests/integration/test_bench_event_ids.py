"""``bench.event_ids`` measures appends on a copy of the events table and leaves nothing behind."""

from __future__ import annotations

import math

import asyncpg

from bench.event_ids import KINDS, one, run
from tests.infra import RunInfra


async def test_each_kind_of_id_is_measured_on_a_table_that_is_dropped_after(migrated: RunInfra) -> None:
    for make_id in KINDS.values():
        wal, cpu, rate = await one(migrated.database_url, make_id, before=300, appends=4)
        assert wal > 0 and rate > 0 and (cpu >= 0 or math.isnan(cpu))  # NaN: the server is on another machine
    conn = await asyncpg.connect(migrated.database_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('bench_ids')") is None
    finally:
        await conn.close()


async def test_the_report_compares_the_two_kinds(migrated: RunInfra) -> None:
    lines = await run(migrated.database_url, before=300, appends=4, repeats=1)
    assert [kind for kind in KINDS if any(line.strip().startswith(kind) for line in lines)] == list(KINDS)
    assert "time-ordered / random: WAL" in lines[-1]
