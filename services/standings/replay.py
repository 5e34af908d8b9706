"""A finished game step by step, as public views only: the state after the opening and after each action."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.eventstore import RecordedEvent
from shared.messages.engine import CommandAccepted
from shared.play.table import Table

COMMAND = CommandAccepted.__struct_config__.tag


def steps(game_id: str, events: list[RecordedEvent]) -> list[dict[str, Any]]:
    """One public view per step; a step ends before the next CommandAccepted (or at the end of the stream)."""
    table = Table(game_id)
    out: list[dict[str, Any]] = []

    def snapshot() -> None:
        if table.rules is not None:
            out.append({"step": len(out), "version": table.version,
                        "view": msgspec.to_builtins(table.rules.view(table.state, None))})

    for event in events:
        if event.type == COMMAND:
            snapshot()
        table.apply(event)
    snapshot()
    return out
