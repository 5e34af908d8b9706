"""The embedded PostgreSQL of ``make run`` starts wherever the checkout lies: a data folder so deep that its Unix
socket's path would pass the 107 bytes Linux allows gets a private socket folder of its own, removed at stop."""

from __future__ import annotations

import stat
from pathlib import Path

import asyncpg

from shared.infra.embedded_postgres import SOCKET_PATH_MAX, EmbeddedPostgres


async def test_a_data_folder_too_deep_for_a_unix_socket_still_starts(tmp_path: Path) -> None:
    deep = tmp_path / ("a-checkout-folder-with-a-long-name-" * 3) / ".data" / "postgres"
    assert len(str(deep / "pgdata" / ".s.PGSQL.15000")) > SOCKET_PATH_MAX
    server = EmbeddedPostgres(deep, durable=False, password="secret")
    try:
        url = server.start()
        sockets = server.socket_folder
        assert sockets is not None and not sockets.is_relative_to(deep)
        assert stat.S_IMODE(sockets.stat().st_mode) == 0o700
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT 1") == 1
        finally:
            await conn.close()
    finally:
        server.stop()
    assert not sockets.exists()
