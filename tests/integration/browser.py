"""Debian's headless Chromium driven over the DevTools protocol, for the tests of the web pages: navigate, run
JavaScript, wait for a condition, click, take screenshots. No browser is a failure, not a skip."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000"]
CLIPPED_CARDS = """JSON.stringify([...document.querySelectorAll('.card, .board-card')]
  .filter(c => c.offsetParent !== null && c.scrollWidth > c.clientWidth)
  .map(c => [c.id || c.dataset.gameId || c.className, c.scrollWidth, c.clientWidth]))"""
RAW_IDS = r"(document.body.innerText.match(/\bp[0-9a-f]{20}\b/g) || [])"
"""Player ids as the gateway makes them: a page that shows one where a registered name exists fails."""


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, tmp: Path) -> None:
        self.ws = ws
        self.tmp = tmp
        self.ids = itertools.count(1)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.ws.send_json({"id": number, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=60)
            if message.get("id") == number:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return dict(message["result"])

    async def js(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float = 30) -> Any:
        """The expression's value once it is truthy (an element counts as true); exceptions while the page loads
        count as not yet."""
        deadline = asyncio.get_running_loop().time() + timeout
        last: object = None
        wrapped = f"(() => {{ const value = ({expression}); return value instanceof Node ? true : value; }})()"
        while asyncio.get_running_loop().time() < deadline:
            try:
                value = await self.js(wrapped)
            except AssertionError as error:
                value, last = None, error
            if value:
                return value
            await asyncio.sleep(0.1)
        raise AssertionError(f"never true in the page within {timeout}s: {expression} ({last})")

    async def open(self, url: str, ready: str = "document.body && document.body.dataset.ready === 'true'") -> None:
        await self.send("Page.navigate", url=url)
        try:
            await self.until(ready, 60)
        except AssertionError as error:
            state = await self.js("JSON.stringify([location.href, document.body && document.body.dataset.ready,"
                                  " window.__errors || []])")
            raise AssertionError(f"{url} never became ready: {state}") from error

    async def screenshot(self, name: str, *, whole: bool = True) -> Path:
        """A PNG of the whole page (or of the window) in the test's temp dir, and in $WEB_SCREENSHOTS when that is
        set (the README's pictures come from there)."""
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=whole)
        png = base64.b64decode(shot["data"])
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
        return await asyncio.to_thread(save, png, self.tmp / f"{name}.png")

    async def clipped_cards(self) -> list[Any]:
        return list(json.loads(await self.js(CLIPPED_CARDS)))

    async def errors(self) -> list[str]:
        return list(await self.js("window.__errors || []"))

    async def raw_ids(self) -> list[str]:
        return list(await self.js(RAW_IDS))


def save(png: bytes, path: Path) -> Path:
    path.write_bytes(png)
    if folder := os.environ.get("WEB_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)
    return path


@asynccontextmanager
async def chromium(tmp: Path, width: int = 1400, height: int = 1000) -> AsyncIterator[Page]:
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
            target = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=256 * 1024 * 1024) as ws:
                page = Page(ws, tmp)
                await page.send("Page.enable")
                await page.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                                mobile=False)
                yield page
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
