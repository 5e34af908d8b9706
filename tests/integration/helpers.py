from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from shared.eventstore import Metadata, NewEvent
from shared.infra.processes import ServiceProcess


def new_stream(category: str = "test") -> str:
    return f"{category}-{uuid.uuid4().hex}"


def event(n: int = 0, *, type: str = "test.Happened", correlation_id: str = "corr", **data: Any) -> NewEvent:  # noqa: A002
    return NewEvent(
        type=type,
        data=msgspec.json.encode({"n": n, **data}),
        metadata=Metadata(correlation_id=correlation_id, actor="tester", command_id=f"cmd-{n}"),
    )


@contextmanager
def service_running(name: str, env: Mapping[str, str], log: Path) -> Iterator[ServiceProcess]:
    """A service as its own process, healthy, for the block; it must then stop cleanly."""
    service = ServiceProcess(name, env, log)
    service.start()
    try:
        service.wait_healthy(60)
    except BaseException:
        service.stop()
        raise
    yield service
    assert service.stop() == 0
