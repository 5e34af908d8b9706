"""The dashboard and the replay viewer in headless Chromium against a running league with matchmaking: registered
players play a Swiss tournament (Vortex) and a single-elimination one (Hockey, best of 3) and a Phantoms season
through the gateway, at a person's pace. The dashboard shows the newest tournament first, a running Swiss round and
the bracket, a live board of each kind moving without a reload, names wherever there are ids, and no clipped card;
its feed says "live" while games move and "idle" once the league is quiet. The replay viewer steps through a
finished Phantoms season."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import aiohttp

from shared.client.bot import play_game
from shared.client.http import LeagueClient
from shared.client.tournament import play_tournament
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.browser import Page, chromium
from tests.integration.web_league import web_league

VERSIONS = "Object.fromEntries([...document.querySelectorAll('.live-board')]" \
           ".map(e => [e.dataset.gameId, Number(e.dataset.version)]))"


class Paced(LeagueClient):
    """A client that thinks a moment before each move, as a person would, so that games run while we look."""

    pace = 0.2

    async def command(self, game_id: str, command: Any, key: str | None = None) -> dict[str, Any]:
        await asyncio.sleep(self.pace)
        return await super().command(game_id, command, key)


async def people(session: aiohttp.ClientSession, gateway: str, names: list[str], pace: float) -> list[Paced]:
    clients = [Paced(session, gateway) for _ in names]
    for client, name in zip(clients, names, strict=True):
        client.pace = pace
        await client.register(name)
    return clients


async def tournament(clients: list[Paced], name: str, game: str, fmt: dict[str, Any],
                     options: dict[str, Any]) -> tuple[str, list[asyncio.Task[int]]]:
    tournament_id = await clients[0].create_tournament(name, game, fmt, len(clients), options)
    for client in clients:
        await client.enter(tournament_id)
    await clients[0].start(tournament_id)
    return tournament_id, [asyncio.create_task(play_tournament(c, tournament_id, random.Random(n)))
                           for n, c in enumerate(clients)]


async def choose_tournament(page: Page, tournament_id: str) -> None:
    await page.js(f"(() => {{ const s = document.getElementById('tournament-select'); s.value = '{tournament_id}';"
                  " s.dispatchEvent(new Event('change')); })()")


async def test_the_dashboard_shows_rounds_a_bracket_and_a_live_board_of_each_kind_updating_without_reload(
    migrated: RunInfra, game_services: dict[str, ServiceProcess], store: EventStore, tmp_path: Path
) -> None:
    tasks: list[asyncio.Task[Any]] = []
    with web_league(migrated, "web-dashboard", matchmaking=True) as league:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session, \
                chromium(tmp_path, height=1100) as page:
            try:
                swiss_players = await people(session, league.gateway, [f"Swiss {n}" for n in "ABCD"], 0.3)
                swiss, playing = await tournament(swiss_players, "Spring Swiss", "vortex",
                                                  {"type": "swiss", "table_size": 2, "rounds": 2}, {"max_rounds": 6})
                tasks += playing
                cup_players = await people(session, league.gateway, [f"Cup {n}" for n in "EFGH"], 0.2)
                cup, playing = await tournament(cup_players, "Knockout Cup", "hockeydice",
                                                {"type": "elimination", "best_of": 3},
                                                {"periods": 1, "shots_per_period": 2})
                tasks += playing
                managers = await people(session, league.gateway, [f"Manager {n}" for n in "WXYZ"], 0.25)
                season = await managers[0].create_game("phantoms", 4, options={"edition": "poti"},
                                                       players=[m.player_id for m in managers])
                tasks += [asyncio.create_task(play_game(m, season, random.Random(n))) for n, m in enumerate(managers)]

                await page.open(league.standings)
                await page.until("document.body.dataset.ready === 'true'")
                marker = await page.js("window.__loadedAt = performance.timeOrigin")

                # The newest tournament by creation time, running, is the one shown: the knockout, as a bracket.
                assert await page.js("document.getElementById('tournament-select').value") == cup
                await page.until("document.querySelectorAll('#rounds .bracket .match').length >= 2")
                bracket = await page.js("document.querySelector('#rounds .bracket').innerText")
                assert all(f"Cup {n}" in bracket for n in "EFGH"), bracket
                assert "Bracket — best of 3" in await page.js("document.getElementById('rounds-title').textContent")
                await page.until("document.querySelectorAll('#leaderboard tbody tr[data-player]').length === 4")

                # A live board of each kind, drawn, moving without a reload.
                for kind in ("vortex", "hockeydice", "phantoms"):
                    await page.until(f"!!document.querySelector('.live-board[data-game=\"{kind}\"]"
                                     "[data-running=\"true\"]')", 60)
                assert await page.js("document.querySelectorAll('.live-board[data-game=\"vortex\"] svg g.phantom')"
                                     ".length") >= 2
                assert await page.js("document.querySelectorAll('.live-board[data-game=\"hockeydice\"] .rink .puck')"
                                     ".length") >= 1
                season_board = f'.live-board[data-game-id=\\"{season}\\"]'
                await page.until(f"document.querySelectorAll('{season_board} table tbody tr').length === 4", 60)
                before = json.loads(await page.js(f"JSON.stringify({VERSIONS})"))
                await page.until(f"Object.entries({VERSIONS}).filter(([id, v]) => v > ({json.dumps(before)}[id] ?? "
                                 "Infinity)).length >= 2", 30)
                assert await page.js("document.getElementById('feed-status').dataset.state") == "live"
                await page.until(f"document.querySelector('{season_board}').innerText.includes('Manager W')", 30)
                assert await page.raw_ids() == []
                assert await page.clipped_cards() == []
                await page.screenshot("dashboard", whole=False)
                await page.screenshot("dashboard-whole")

                # The Swiss tournament: a round being played, its pairings, then standings with Median-Buchholz.
                await choose_tournament(page, swiss)
                await page.until("document.getElementById('rounds-title').textContent === 'Swiss rounds'")
                await page.until("document.querySelectorAll('#rounds .pairing').length === 2")
                await page.until("!!document.querySelector('#rounds .pairing .badge.running')", 30)
                pairings = await page.js("document.getElementById('rounds').innerText")
                assert all(f"Swiss {n}" in pairings for n in "ABCD") and "Median-Buchholz" in pairings
                await page.screenshot("dashboard-swiss")
                await page.until("!!document.querySelector('#round-tabs [data-round=\"2\"]')", 120)
                await page.until("document.querySelector('#rounds h3')?.textContent.includes('round 2')", 30)
                assert await page.js("performance.timeOrigin") == marker, "the page was reloaded"

                await asyncio.wait_for(asyncio.gather(*tasks[:8]), 300)
                for task in tasks[8:]:
                    task.cancel()
                await asyncio.gather(*tasks[8:], return_exceptions=True)
                await page.until("document.getElementById('feed-status').dataset.state === 'idle'", 60)
                assert await page.js("document.getElementById('feed-status').textContent") == "feed: idle"
                await choose_tournament(page, cup)
                await page.until("document.querySelector('#rounds .bracket')?.innerText.toLowerCase()"
                                 ".includes('champion')", 30)
                assert "★ Cup" in await page.js("document.querySelector('#rounds .bracket').innerText")
                await page.screenshot("dashboard-bracket")
                assert await page.js("document.getElementById('leaderboard-note').textContent") == "final ranking"
                assert await page.clipped_cards() == []
                assert await page.errors() == []
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)


async def test_the_replay_viewer_steps_through_a_phantoms_season(
    migrated: RunInfra, game_services: dict[str, ServiceProcess], tmp_path: Path
) -> None:
    with web_league(migrated, "web-replay") as league:
        async with aiohttp.ClientSession() as session, chromium(tmp_path, height=1100) as page:
            owner = LeagueClient(session, league.gateway)
            await owner.register("Replay Owner")
            season = await owner.create_game("phantoms", 3, options={"edition": "poti"},
                                             players=[owner.player_id, None, None], bots=["greedy"] * 3)
            for _ in range(600):
                if (await owner.view(season)).ended:
                    break
                await asyncio.sleep(0.2)
            await page.open(f"{league.standings}/replay/{season}?step=1")
            total = int((await page.js("document.getElementById('step').textContent")).split(" of ")[1])
            assert total > 100
            assert "Replay Owner" in await page.js("document.getElementById('game-title').textContent")
            await page.until("document.getElementById('verdict').dataset.verified === 'true'", 60)
            for _ in range(3):
                await page.js("document.getElementById('next-action').click()")
                await page.until("document.getElementById('event').textContent.includes('who did what')")
            action = await page.js("document.getElementById('event').textContent")
            assert "Action 3: who did what" in action and "greedy bot" in action, action
            step = int((await page.js("document.getElementById('step').textContent")).split()[1])
            assert await page.js("location.search") == f"?step={step}"
            await page.js("document.getElementById('last').click()")
            await page.until(f"document.getElementById('step').textContent === 'event {total} of {total}'")
            await page.until("document.querySelectorAll('#drawing .paper table.scorepad tbody tr').length === 3")
            assert "is champion" in await page.js("document.getElementById('timeline').innerText")
            await page.screenshot("replay")
            middle = total // 2
            await page.open(f"{league.standings}/replay/{season}?step={middle}")
            assert await page.js("document.getElementById('step').textContent") == f"event {middle} of {total}"
            assert await page.js("document.querySelector('#timeline .ev.current').dataset.step") == str(middle)
            assert await page.clipped_cards() == []
            assert await page.errors() == []
