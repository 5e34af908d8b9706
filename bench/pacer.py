"""When the generator's games may send their next command: at once (closed loop, to find the sustained rate), or
at a fixed offered rate across all games (open loop), each command handed a scheduled time to measure from."""

from __future__ import annotations

import asyncio
import time


class ClosedLoop:
    """Every ready game sends at once, at most ``in_flight`` commands at a time: the league's sustained rate at this
    concurrency (more in flight only lengthens the queue, up to the gateway's timeouts)."""

    rate: float | None = None

    def __init__(self, in_flight: int) -> None:
        self._gate = asyncio.Semaphore(in_flight)

    async def slot(self) -> float | None:
        await self._gate.acquire()
        return time.perf_counter()

    def done(self) -> None:
        self._gate.release()

    def start(self) -> None:
        pass

    def stop(self, workers: int) -> None:
        pass


class Paced:
    """One command every ``1/rate`` seconds, whatever the league's answers: a command's scheduled time is when it
    was due; when no game is ready to take it, it waits (and that wait counts in its latency)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._due: asyncio.Queue[float | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def slot(self) -> float | None:
        return await self._due.get()

    def done(self) -> None:
        pass

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        start, sent = time.perf_counter(), 0
        while True:
            now = time.perf_counter()
            due = int((now - start) * self.rate) + 1
            for n in range(sent, due):
                self._due.put_nowait(start + n / self.rate)
            sent = due
            await asyncio.sleep(max(0.0, start + sent / self.rate - time.perf_counter()))

    def stop(self, workers: int) -> None:
        if self._task is not None:
            self._task.cancel()
        while not self._due.empty():
            self._due.get_nowait()
        for _ in range(workers):
            self._due.put_nowait(None)


Pacer = ClosedLoop | Paced
