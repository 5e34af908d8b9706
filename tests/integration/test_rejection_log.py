"""The engine's refusals are written behind its answers, many in one write; one record PostgreSQL refuses costs only
itself."""

from __future__ import annotations

import uuid

import asyncpg

from services.engine.rejections import RejectionLog


async def rows_of(pool: asyncpg.Pool, game_id: str) -> list[asyncpg.Record]:
    async with pool.acquire() as conn:
        rows: list[asyncpg.Record] = await conn.fetch(
            "SELECT command, code, message, correlation_id, actor, rejected_at FROM rejected_commands"
            " WHERE game_id = $1 ORDER BY id", game_id)
    return rows


async def test_refusals_are_written_together_each_with_its_own_time(pool: asyncpg.Pool) -> None:
    game_id = f"vortex-{uuid.uuid4().hex}"
    async with RejectionLog(pool) as log:
        for n in range(300):
            log.record(game_id, b'{"type": "vortex.Move", "n": %d}' % n, "vortex.turn", f"not now ({n})", f"corr-{n}",
                       "player-1")
        assert log.waiting > 0, "the answer must not wait for the write"
    rows = await rows_of(pool, game_id)
    assert [r["message"] for r in rows] == [f"not now ({n})" for n in range(300)]
    assert rows[7]["correlation_id"] == "corr-7" and rows[7]["actor"] == "player-1" and rows[7]["code"] == "vortex.turn"
    times = [r["rejected_at"] for r in rows]
    assert times == sorted(times) and times[0] < times[-1], "each refusal keeps the time it was made"
    assert log.written == 300 and log.waiting == 0 and log.dropped == 0


async def test_a_record_postgresql_refuses_is_left_out_alone(pool: asyncpg.Pool) -> None:
    game_id = f"vortex-{uuid.uuid4().hex}"
    async with RejectionLog(pool) as log:
        log.record(game_id, b'{"ok": 1}', "c", "first", None, None)
        log.record(game_id, b'{"bad": "\\u0000"}', "c", "a NUL jsonb cannot hold", None, None)
        log.record(game_id, b'{"ok": 2}', "c", "third", None, None)
    assert [r["message"] for r in await rows_of(pool, game_id)] == ["first", "third"]
    assert log.written == 2


async def test_beyond_its_bound_a_refusal_is_counted_not_kept(pool: asyncpg.Pool) -> None:
    game_id = f"vortex-{uuid.uuid4().hex}"
    log = RejectionLog(pool, most_waiting=3)  # not started: nothing is written, as while PostgreSQL is away
    for n in range(5):
        log.record(game_id, b"{}", "c", str(n), None, None)
    assert (log.waiting, log.dropped) == (3, 2)
    async with log:
        pass
    assert [r["message"] for r in await rows_of(pool, game_id)] == ["0", "1", "2"]
