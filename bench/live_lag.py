"""The standings service's live lag, watched from a process of its own so that the bots' event loop in the
benchmark's process delays no reading: each SSE feed entry's age on arrival (its event's ``recorded_at``, set at
INSERT, to the moment the change reaches a client), and the service's own ``/metrics`` gauges (events not yet
folded, age of the oldest of them) sampled once a second."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import time
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event

import aiohttp

SAMPLE_SECONDS = 1.0
GAUGES = ("standings_lag_events", "standings_lag_seconds")


@dataclass
class Lags:
    feed_seconds: list[float] = field(default_factory=list)
    """append (recorded_at) -> change on the SSE feed, one per feed entry"""
    gauge_events: list[float] = field(default_factory=list)
    gauge_seconds: list[float] = field(default_factory=list)


async def follow_feed(session: aiohttp.ClientSession, url: str, lags: Lags, ready: Event) -> None:
    async with session.get(f"{url}/v1/feed?from=now") as response:
        response.raise_for_status()
        ready.set()
        async for raw in response.content:
            line = raw.decode()
            if line.startswith("data: "):
                recorded_at = datetime.fromisoformat(json.loads(line[6:])["recorded_at"]).timestamp()
                lags.feed_seconds.append(time.time() - recorded_at)


async def sample_gauges(session: aiohttp.ClientSession, url: str, lags: Lags) -> None:
    while True:
        async with session.get(f"{url}/metrics") as response:
            text = await response.text()
        values = dict(line.split(" ", 1) for line in text.splitlines() if line.startswith(GAUGES))
        lags.gauge_events.append(float(values["standings_lag_events"]))
        lags.gauge_seconds.append(float(values["standings_lag_seconds"]))
        await asyncio.sleep(SAMPLE_SECONDS)


async def _watch(url: str, ready: Event, stop: Event, results: Connection) -> None:
    lags = Lags()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
        tasks = [asyncio.create_task(follow_feed(session, url, lags, ready)),
                 asyncio.create_task(sample_gauges(session, url, lags))]
        while not stop.is_set():
            if failed := [t for t in tasks if t.done()]:
                await failed[0]  # raises what went wrong; a feed or sampler never ends by itself
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    results.send(lags)


def watch(url: str, ready: Event, stop: Event, results: Connection) -> None:
    asyncio.run(_watch(url, ready, stop, results))


class Watcher:
    """Start: the feed is subscribed when ``start`` returns. Stop: the lags seen meanwhile."""

    def __init__(self, url: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.ready, self.stop_event = context.Event(), context.Event()
        self.results, self.sender = context.Pipe(duplex=False)
        self.process = context.Process(target=watch, args=(url, self.ready, self.stop_event, self.sender),
                                       daemon=True)

    async def start(self) -> None:
        self.process.start()
        self.sender.close()  # the child's copy alone: a child that dies closes the pipe
        if not await asyncio.to_thread(self.ready.wait, 60):
            self.process.kill()
            raise TimeoutError("the lag watcher did not subscribe to the feed within 60s")

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()

    async def stop(self) -> Lags:
        self.stop_event.set()
        try:
            if await asyncio.to_thread(self.results.poll, 60):
                try:
                    lags: Lags = self.results.recv()
                    return lags
                except EOFError:
                    pass
            raise RuntimeError("the lag watcher gave no figures (it failed or hung)")
        finally:
            await asyncio.to_thread(self.process.join, 10)
            self.kill()
