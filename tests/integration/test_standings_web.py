"""The dashboard in headless Chromium (tests/integration/browser.py) with bots playing a tournament known only from
its game streams: the leaderboard shows, live boards move without a reload, the feed says it is live, no card is
clipped; a finished game opens in the replay viewer at a given event; with the service gone the feed says it is
reconnecting."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec, standings_service, tournament
from tests.integration.browser import chromium

LEADERBOARD_ROWS = "document.querySelectorAll('#leaderboard tbody tr[data-player]').length"
BOARD_VERSIONS = "JSON.stringify([...document.querySelectorAll('.live-board')].map(e => [e.dataset.gameId, " \
                 "e.dataset.version]))"


async def test_the_dashboard_shows_the_leaderboard_and_live_boards_moving_in_headless_chromium(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess], tmp_path: Path
) -> None:
    players = [f"web-{n}" for n in range(4)]
    async with standings_service(migrated, "standings-web") as standings, chromium(tmp_path) as page:
        load = BotLoad(nc, migrated.namespace, store)
        load.pace.seconds = 0.05
        await load.start(tournament("web-cup", "vortex", 2, players, rounds=1, options={"max_rounds": 5})
                         + [Spec("hockeydice", 2, players=("web-0", "web-1"))])
        await page.open(standings.url)
        # The leaderboard learns the players from each table's game as it opens: the page may first show one table's.
        rows = await page.until(f"{LEADERBOARD_ROWS} >= {len(players)} && {LEADERBOARD_ROWS}")
        assert rows == len(players)
        assert "web-cup" in await page.js("document.getElementById('tournament-select').textContent")
        before = json.loads(await page.until(f"{BOARD_VERSIONS} !== '[]' && {BOARD_VERSIONS}"))
        await asyncio.sleep(1.5)
        after = json.loads(await page.js(BOARD_VERSIONS))
        assert load.running() > 0
        moved = [game for game, version in before if game in dict(after) and int(dict(after)[game]) > int(version)]
        assert moved, f"no live board moved while bots played: {before} -> {after}"
        assert await page.js("document.getElementById('feed-status').dataset.state") == "live"
        assert await page.clipped_cards() == []
        await page.screenshot("dashboard-of-game-streams")

        load.pace.seconds = 0.0
        await asyncio.wait_for(asyncio.gather(*load.tasks[:2]), 60)
        await load.cancel()  # the hockey game has shown it moves; it need not be played out
        finished = load.game_ids[0]
        await page.until(f"!!document.querySelector('#finished tr[data-game-id=\"{finished}\"] a')", 30)
        assert await page.js("document.getElementById('feed-status').dataset.state") in ("live", "idle")
        # The leader's points once a game's result is in: 1, or 0.50 each when a race ends at max_rounds tied.
        await page.until("parseFloat(document.querySelector('#leaderboard tbody td:nth-child(3)').textContent) > 0")
        await page.open(f"{standings.url}/replay/{finished}?step=3")
        assert (await page.js("document.getElementById('step').textContent")).startswith("event 3 of ")
        await page.until("document.getElementById('verdict').dataset.verified === 'true'")
        await page.js("document.getElementById('next').click()")
        await page.until("location.search === '?step=4'")
        assert await page.errors() == []
        await page.open(standings.url)
        await page.until("['live', 'idle'].includes(document.getElementById('feed-status').dataset.state)")
        assert standings.stop() == 0  # the feed's connection drops: the page says so, and keeps trying
        await page.until("document.getElementById('feed-status').dataset.state === 'reconnecting'", 20)
        assert await page.js("document.getElementById('feed-status').textContent") == "feed: reconnecting"
