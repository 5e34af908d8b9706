"""How ``league up`` stops: on SIGINT (Ctrl-C, or ``kill -INT`` of a league started in the background, whose shell
had it ignored) as on SIGTERM. Outside the event loop either raises ``Stop``; inside it (the demo, the recovery of
an interrupted one) it cancels the running coroutine, which cleans up its own tasks, and ``Stop`` is raised once
the loop has closed: no task is left to fail on a closed session. While the league shuts down, further signals
are only acknowledged: a second Ctrl-C does not cut the clean-up short and leave children behind."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stop(Exception):
    """A signal asked the league to stop."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop


def stop_on_signals() -> None:
    for signum in SIGNALS:
        signal.signal(signum, _raise_stop)


def _still_stopping(signum: int, frame: FrameType | None) -> None:
    print("league: still stopping (waiting for the services to finish) ...", flush=True)


def hold_signals() -> None:
    """From here on (the shutdown itself) a signal changes nothing."""
    for signum in SIGNALS:
        signal.signal(signum, _still_stopping)


def run_until_stopped(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``; a stop signal cancels ``main`` and raises ``Stop`` after it has wound down."""
    stopped = False

    async def guarded() -> T:
        nonlocal stopped
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None

        def stop() -> None:
            nonlocal stopped
            stopped = True
            task.cancel()

        for signum in SIGNALS:
            loop.add_signal_handler(signum, stop)
        return await main

    try:
        result = asyncio.run(guarded())
    except BaseException:
        if stopped:  # whatever the cancelled work raised on its way out (a dropped connection) is not news
            raise Stop from None
        raise
    finally:
        stop_on_signals()  # the loop's handlers are gone with it: ours again
    if stopped:
        raise Stop
    return result
