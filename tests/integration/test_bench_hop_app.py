"""``bench.hop_app``: a POST to the front is carried over NATS to the back, which stores the floor's row and answers."""

from __future__ import annotations

import asyncio
import uuid

import aiohttp
import asyncpg

from bench.floor_process import FloorProcess
from bench.hops import wait_for_line
from tests.infra import RunInfra


async def test_a_post_to_the_front_is_stored_by_the_back_and_answered(migrated: RunInfra) -> None:
    env = {**migrated.env, "DATABASE_URL": migrated.database_url, "NATS_NKEY_FILE": migrated.admin_nkey,
           "NATS_SUBJECT": f"{migrated.namespace.prefix}.bench.hop-test", "EVENT_LOOP": "uvloop"}
    back = FloorProcess("back", env, migrated.tmp / "hop-test-back.log", module=("bench.hop_app", "back"))
    front = FloorProcess("front", env, migrated.tmp / "hop-test-front.log", module=("bench.hop_app", "front"))
    keys = [f"hop-test-{uuid.uuid4()}" for _ in range(3)]
    back.start()
    try:
        await asyncio.to_thread(wait_for_line, migrated.tmp / "hop-test-back.log", "back ready", back)
        front.start()
        await asyncio.to_thread(front.wait_healthy, 60)
        async with aiohttp.ClientSession() as http:
            for n, key in enumerate(keys):
                async with http.post(f"{front.url}/insert", json={"move": n},
                                     headers={"Idempotency-Key": key}) as response:
                    assert response.status == 200
                    assert await response.json() == {"ok": True}
    finally:
        front.stop()
        back.stop()
    conn = await asyncpg.connect(migrated.database_url)
    try:
        rows = await conn.fetch("SELECT command_id, body FROM bench_floor WHERE command_id = ANY($1) ORDER BY id", keys)
        await conn.execute("DROP TABLE bench_floor")
    finally:
        await conn.close()
    assert [row["command_id"] for row in rows] == keys
    assert [row["body"] for row in rows] == ['{"move": 0}', '{"move": 1}', '{"move": 2}']
