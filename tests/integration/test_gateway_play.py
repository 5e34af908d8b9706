"""What the gateway serves the play page: the page and its files (nothing else from disk), where the standings
are, and an ended game's audit bundle (never a running game's)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import aiohttp
import pytest

from shared.audit import audit_game
from shared.audit.bundle import load_bundle
from shared.client.bot import play_game
from shared.client.http import LeagueClient
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import until
from tests.integration.web_league import WebLeague, web_league


@pytest.fixture(scope="module")
async def league(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[WebLeague]:
    with web_league(migrated, "gateway-play") as running:
        yield running


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, str, bytes]:
    async with session.get(url) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.read()


async def test_the_play_page_its_files_and_where_the_standings_are(league: WebLeague) -> None:
    async with aiohttp.ClientSession() as session:
        status, kind, body = await get(session, f"{league.gateway}/play")
        assert status == 200 and kind.startswith("text/html") and b"/play/play.js" in body
        for path, expected in (("/play/play.js", "text/javascript"), ("/play/play.css", "text/css"),
                               ("/lib/fairness.js", "text/javascript"), ("/lib/theme.css", "text/css"),
                               ("/play/logo.svg", "image/svg+xml")):
            status, kind, _ = await get(session, f"{league.gateway}{path}")
            assert (status, kind.split(";")[0]) == (200, expected), path
        for path in ("/lib/__init__.py", "/play/..%2Fapp.py", "/lib/..%2F..%2Fconfig.py", "/play/nope.js",
                     "/lib/.hidden.js"):
            status, _, _ = await get(session, f"{league.gateway}{path}")
            assert status == 404, path
        status, _, body = await get(session, f"{league.gateway}/play/config.json")
        assert status == 200 and body == f'{{"standings_url": "{league.standings}"}}'.encode()


async def test_an_ended_games_audit_bundle_and_never_a_running_ones(league: WebLeague) -> None:
    async with aiohttp.ClientSession() as session:
        client = LeagueClient(session, league.gateway)
        player = await client.register("Bundle Reader")
        game_id = await client.create_game("hockeydice", 2, options={"periods": 1, "shots_per_period": 1},
                                           players=[player.player_id, None], bots=[None, "greedy"])
        status, _, body = await get(session, f"{league.gateway}/audit/{game_id}/bundle")
        assert status == 409 and b"audit.game-running" in body
        await play_game(client, game_id, random.Random(3))

        async def revealed() -> tuple[str, bytes] | None:
            status, kind, body = await get(session, f"{league.gateway}/audit/{game_id}/bundle")
            assert status == 200, body  # the game has ended: its bundle is there, the seed's reveal may lag
            return (kind, body) if any(e.type == "rng.SeedRevealed" for e in load_bundle(body)[2]) else None

        kind, body = await until("the bundle holds the revealed seed", revealed, timeout=30)
        header, game, rng = load_bundle(body)
        assert kind.startswith("application/x-ndjson")
        assert header.game_id == game_id and audit_game(game_id, game, rng).verified
        for path, code in (("/audit/vortex-nope/bundle", 404), ("/audit/NOT%20AN%20ID/bundle", 400)):
            status, _, _ = await get(session, f"{league.gateway}{path}")
            assert status == code, path
