"""Schemathesis (every check it has) against the running gateway's /openapi.json: no server error, and the document
and the gateway agree on every status, body, header and method."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.integration.helpers import players

CONFIG = Path(__file__).resolve().parents[1] / "schemathesis.toml"
pytestmark = pytest.mark.usefixtures("gateway", "matchmaking")


async def test_schemathesis_finds_no_server_error_and_no_mismatch_with_the_document(
    gateway: str, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    (player,) = await players(session, gateway, 1)
    st = Path(sys.executable).parent / "st"
    run = [str(st), "--config-file", str(CONFIG), "run", f"{gateway}/openapi.json", "--checks", "all",
           # A WebSocket handshake, which schemathesis does not speak (test_gateway_live.py plays over it).
           "--exclude-path", "/v1/games/{game_id}/ws",
           "-H", f"Authorization: Bearer {player.token}", "--max-examples", "15", "--seed", "1", "--workers", "1",
           "--generation-database", "none", "--no-color", "--report", "junit", "--report-dir", str(tmp_path)]
    done = await asyncio.to_thread(subprocess.run, run, capture_output=True, text=True, timeout=600, check=False,
                                   cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failures" not in done.stdout.rsplit("SUMMARY", 1)[-1], done.stdout[-3000:]
