"""The disk's own flush stalls while a benchmark runs, so that a latency tail can be told apart from the disk's.

A thread writes 8 KiB and ``fdatasync``s it every 50 ms into a file of the run's folder (the embedded PostgreSQL's
data is in the same folder). A durable commit waits for the same device flush, so while this probe's flush stalls,
every commit waiting then stalls too, the league's and the floor's alike. Twenty small flushes a second add nothing
the disk notices beside PostgreSQL's hundreds.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from types import TracebackType

INTERVAL = 0.05
STALL = 0.05
"""A flush this slow holds up, at half the league's sustained rate, more than 1 % of an 8 s window's commands."""


class FlushProbe:
    def __init__(self, directory: Path, interval: float = INTERVAL) -> None:
        self.path = directory / "flush-probe.dat"
        self.interval = interval
        self.samples: list[tuple[float, float]] = []
        """(perf_counter when the write began, seconds until fdatasync returned): the clock the generator uses."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="flush-probe", daemon=True)

    def __enter__(self) -> FlushProbe:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()
        self.path.unlink(missing_ok=True)

    def _run(self) -> None:
        block = os.urandom(8192)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while not self._stop.wait(self.interval):
                began = time.perf_counter()
                os.pwrite(fd, block, 0)
                os.fdatasync(fd)
                self.samples.append((began, time.perf_counter() - began))
        finally:
            os.close(fd)

    def between(self, start: float, end: float) -> dict[str, float]:
        """The flushes begun in [start, end]: how many, how many stalled over ``STALL``, the slowest (ms)."""
        inside = [seconds for began, seconds in self.samples if start <= began <= end]
        return {"flushes": len(inside), "stalls_over_50ms": sum(s > STALL for s in inside),
                "max_ms": round(max(inside, default=0.0) * 1000, 1)}
