"""Keeps the league's processes running (``league up``; the fault tests run the same): each process that exits is
started again after a back-off that grows with its restarts in a sliding window, and shrinks again once they fall
out of it. A process that keeps failing is retried at the longest back-off, with a warning, for as long as the
league runs: the others, healthy, are never taken down for it. Only exits are acted on: a service that answers 503
(its NATS or database gone) is waiting for them, and restarting it would not help."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol


class Child(Protocol):
    @property
    def name(self) -> str: ...

    def alive(self) -> bool: ...

    def start(self) -> object:
        """Start it again, as it was (the same port, the same data)."""

    def exit_status(self) -> int | None: ...


@dataclass(frozen=True)
class RestartPolicy:
    first_delay: float = 0.5
    """After a first exit (none in the window before it)."""
    factor: float = 2.0
    longest_delay: float = 30.0
    window_seconds: float = 300.0
    """Restarts older than this no longer count towards the back-off."""
    warn_after: int = 5
    """Restarts in the window from which each restart is announced as a warning."""

    def delay(self, recent_restarts: int) -> float:
        return float(min(self.first_delay * self.factor ** recent_restarts, self.longest_delay))


@dataclass
class _Watch:
    child: Child
    restarts: deque[float] = field(default_factory=deque)
    due: float | None = None
    """When the next start is due, once the child was seen exited."""


class Supervisor:
    def __init__(self, children: Sequence[Child], policy: RestartPolicy = RestartPolicy(), *,
                 say: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self.say = say
        self.clock = clock
        self._watches = [_Watch(child) for child in children]
        self.restarts = 0
        """Every restart since the supervisor began."""

    def recent(self, name: str) -> int:
        return next(len(w.restarts) for w in self._watches if w.child.name == name)

    def step(self) -> None:
        """One look at every child (in order: the infrastructure first); starts those whose back-off is over."""
        now = self.clock()
        for watch in self._watches:
            while watch.restarts and now - watch.restarts[0] > self.policy.window_seconds:
                watch.restarts.popleft()
            if watch.child.alive():
                continue
            if watch.due is None:
                delay = self.policy.delay(len(watch.restarts))
                watch.due = now + delay
                self.say(f"league: {watch.child.name} exited (status {watch.child.exit_status()}); starting it again "
                         f"in {delay:.1f}s")
            if now < watch.due:
                continue
            watch.due = None
            watch.restarts.append(now)
            self.restarts += 1
            if len(watch.restarts) > self.policy.warn_after:
                self.say(f"league: WARNING {watch.child.name} keeps failing: {len(watch.restarts)} restarts in the "
                         f"last {self.policy.window_seconds:.0f}s")
            try:
                watch.child.start()
            except Exception as error:  # it failed to come up: the next look sees it exited, with a longer back-off
                self.say(f"league: {watch.child.name} did not start: {error}")

    def run(self, stop: threading.Event, interval: float = 0.5) -> None:
        while not stop.wait(interval):
            self.step()


@contextmanager
def supervising(children: Sequence[Child], policy: RestartPolicy = RestartPolicy(), *,
                say: Callable[[str], None] = print) -> Iterator[Supervisor]:
    """A supervisor looking after ``children`` in a thread of its own, for the block; stopped before the block's
    caller stops the children (so that nothing it stops is started again)."""
    supervisor = Supervisor(children, policy, say=say)
    stop = threading.Event()
    thread = threading.Thread(target=supervisor.run, args=(stop,), name="supervisor", daemon=True)
    thread.start()
    try:
        yield supervisor
    finally:
        stop.set()
        thread.join()
