"""The dashboard in headless Chromium (Debian's ``chromium``, driven over the DevTools protocol): the leaderboard
shows, live boards move while bots play, a screenshot is taken. No browser is a failure, not a skip."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec, standings_service, tournament

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000"]


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.ws.send_json({"id": number, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=30)
            if message.get("id") == number:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return dict(message["result"])

    async def js(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float = 20) -> Any:
        for _ in range(int(timeout / 0.1)):
            value = await self.js(expression)
            if value:
                return value
            await asyncio.sleep(0.1)
        raise AssertionError(f"never true in the page: {expression}")


@asynccontextmanager
async def chromium(tmp: Path) -> AsyncIterator[Page]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.fail("no chromium: `make test` installs Debian's chromium (apt-get install chromium) as root")
    profile = tmp / "chromium-profile"
    with (tmp / "chromium.log").open("wb") as log:
        process = await asyncio.create_subprocess_exec(binary, *FLAGS, f"--user-data-dir={profile}", "about:blank",
                                                       stdout=log, stderr=log)
    try:
        active = profile / "DevToolsActivePort"
        for _ in range(300):
            if active.exists() and active.read_text().count("\n") >= 1 or process.returncode is not None:
                break
            await asyncio.sleep(0.1)
        if not active.exists():
            pytest.fail(f"chromium did not start (exit code {process.returncode}): "
                        f"{(tmp / 'chromium.log').read_text()[-2000:]}")
        port = active.read_text().splitlines()[0]
        async with aiohttp.ClientSession() as session:
            targets = await (await session.get(f"http://127.0.0.1:{port}/json/list")).json()
            page = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=64 * 1024 * 1024) as ws:
                yield Page(ws)
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()


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
        await page.send("Page.enable")
        await page.send("Page.navigate", url=standings.url)
        await page.until("document.body && document.body.dataset.ready === 'true'")
        rows = await page.until("document.querySelectorAll('#leaderboard tbody tr').length")
        assert rows == len(players)
        assert "web-cup" in await page.js("document.getElementById('tournament-select').textContent")
        before = json.loads(await page.until(f"{BOARD_VERSIONS} !== '[]' && {BOARD_VERSIONS}"))
        await asyncio.sleep(1.5)
        after = json.loads(await page.js(BOARD_VERSIONS))
        assert load.running() > 0
        moved = [game for game, version in before if int(dict(after)[game]) > int(version)]
        assert moved, f"no live board moved while bots played: {before} -> {after}"
        assert "feed: live" in await page.js("document.getElementById('feed-status').textContent")
        shot = await page.send("Page.captureScreenshot", format="png")
        png = base64.b64decode(shot["data"])
        path = tmp_path / "dashboard.png"
        path.write_bytes(png)
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and path.stat().st_size > 10_000

        load.pace.seconds = 0.0
        await asyncio.wait_for(asyncio.gather(*load.tasks[:2]), 60)
        await load.cancel()  # the hockey game has shown it moves; it need not be played out
        finished = load.game_ids[0]
        await page.until(f"[...document.querySelectorAll('#replay-select option')].some(o => o.value === '{finished}')")
        await page.js(f"(async () => {{ document.getElementById('replay-select').value = '{finished}';"
                      f" await openReplay('{finished}'); move(3); }})()")
        assert (await page.js("document.getElementById('replay-step').textContent")).startswith("step 3 of ")
        await page.until("document.querySelector('#leaderboard tbody td:nth-child(3)').textContent === '1.00'")
