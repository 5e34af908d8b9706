"""``league up`` from a person's side: SIGINT stops a league started in the background, quietly and with every
child; the next start ends the games an interrupted demo left running; quick restarts keep the gateway and the
dashboard on their ports (in TIME_WAIT after the last run, not taken)."""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from pathlib import Path

import pytest

from shared.cli.connection import open_store
from shared.cli.interrupted import RUNNING_GAMES
from shared.infra.ports import free_port
from tests.e2e.league_process import OWN_SERVERS, LeagueUp, descendants, running

NOISE = ("Traceback", "Task exception was never retrieved", "Session is closed", "Error", "exception")


def env_file(data_dir: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in (data_dir / "league.env").read_text().splitlines())


def keep_connections_open(url: str) -> list[socket.socket]:
    """Connections the server must close at its stop: its side of each waits in TIME_WAIT afterwards."""
    host, port = url.removeprefix("http://").split(":")
    held = []
    for _ in range(5):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sock.recv(4096)
        held.append(sock)
    return held


async def games_left_running(data_dir: Path) -> int:
    store = await open_store(data_dir)  # as the league's auditor, like `league audit`
    try:
        async with store.pool.acquire() as conn:
            players = [r[0] for r in await conn.fetch("SELECT DISTINCT jsonb_array_elements_text(data->'players')"
                                                      " FROM events WHERE type = 'engine.GameOpened'")]
            return len(await conn.fetch(RUNNING_GAMES, players))
    finally:
        await store.pool.close()


def stop_quietly(league: LeagueUp) -> None:
    children = descendants(league.process.pid)
    assert children, "league up should have started its servers and services"
    assert league.interrupt() == 0, league.output
    assert [pid for pid in children if running(pid)] == [], league.output
    assert "league: stopped." in league.output
    loud = [line for line in league.lines if any(word in line for word in NOISE)]
    assert loud == [], league.output


@pytest.mark.slow
def test_sigint_stops_a_background_league_and_the_next_starts_end_its_demo_on_the_same_ports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OWN_SERVERS:  # this test reads the league it starts (its league.env), not the servers of the run
        monkeypatch.delenv(name, raising=False)
    ports = {"gateway": free_port(), "standings": free_port()}
    data_dir = tmp_path / "league"
    first = LeagueUp(data_dir, ports, demo=True)
    try:
        first.wait_for("Swiss tournament")
        first.wait_for("  [", timeout=120)  # a game of the demo has come to its end: others are mid-way
        stop_quietly(first)
        assert "the demo was cut short" in first.output
    finally:
        first.kill()

    for restart in range(2):
        league = LeagueUp(data_dir, ports, demo=False)
        try:
            league.wait_for("The league keeps running")
            urls = env_file(data_dir)
            assert urls["GATEWAY_URL"] == f"http://127.0.0.1:{ports['gateway']}", league.output
            assert urls["STANDINGS_URL"] == f"http://127.0.0.1:{ports['standings']}", league.output
            assert "WARNING port" not in league.output
            if restart == 0:
                assert "unfinished games were abandoned" in league.output, league.output
            assert asyncio.run(games_left_running(data_dir)) == 0
            with urllib.request.urlopen(f"{urls['STANDINGS_URL']}/v1/counters", timeout=10) as response:
                counters = response.read().decode()
            assert '"games_running":0' in counters.replace(" ", ""), counters
            held = keep_connections_open(urls["GATEWAY_URL"])
            stop_quietly(league)
            for sock in held:
                sock.close()
        finally:
            league.kill()
