from __future__ import annotations

import uuid
from typing import Any

import msgspec

from shared.eventstore import Metadata, NewEvent


def new_stream(category: str = "test") -> str:
    return f"{category}-{uuid.uuid4().hex}"


def event(n: int = 0, *, type: str = "test.Happened", correlation_id: str = "corr", **data: Any) -> NewEvent:  # noqa: A002
    return NewEvent(
        type=type,
        data=msgspec.json.encode({"n": n, **data}),
        metadata=Metadata(correlation_id=correlation_id, actor="tester", command_id=f"cmd-{n}"),
    )
