"""``league replay <stream> [--to N] [--step]``: a game rebuilt to any event and shown as text."""

from __future__ import annotations

import sys
from pathlib import Path

from shared.cli.connection import open_store
from shared.eventstore import RecordedEvent
from shared.messages.engine import CommandAccepted
from shared.play.table import NotAGame, Table

COMMAND = CommandAccepted.__struct_config__.tag


def steps(events: list[RecordedEvent]) -> list[int]:
    """The version after which each action is complete: the opening, then one per accepted command."""
    ends = [i for i, e in enumerate(events) if e.type == COMMAND]
    return [events[i - 1].version for i in ends if i > 0] + ([events[-1].version] if events else [])


async def read(data_dir: Path, stream_id: str) -> list[RecordedEvent]:
    store = await open_store(data_dir)
    try:
        return await store.read_stream(stream_id)
    finally:
        await store.pool.close()


def shown_as_text(table: Table) -> str:
    if table.rules is None:
        return "(not opened)"
    if not table.started:
        return (f"(waiting for client seeds until {table.seeding_until}: given by seats {sorted(table.client_seeds)},"
                f" missing {list(table.seeds_missing())})")
    if table.state is None:
        return "(opened; the rules' opening comes in the next events)"
    return table.rules.render(table.state)


def replay(events: list[RecordedEvent], stream_id: str, to: int | None, step: bool) -> int:
    if not events:
        print(f"no stream {stream_id}", file=sys.stderr)
        return 2
    if to is not None:
        events = [e for e in events if e.version <= to]
    table = Table(stream_id)
    try:
        if step:
            shown = 0
            for number, until in enumerate(steps(events), start=1):
                for event in events[shown:until]:
                    table.apply(event)
                shown = until
                print(f"\n=== {stream_id} step {number} (v{table.version}) ===")
                print(shown_as_text(table))
                if sys.stdin.isatty() and input("[Enter] next, q quits: ").strip().lower() == "q":
                    break
        else:
            table.apply_all(events)
            print(f"=== {stream_id} at v{table.version}{' (ended)' if table.ended else ''} ===")
            print(shown_as_text(table))
    except NotAGame as error:
        print(f"{stream_id} is not a game stream: {error}", file=sys.stderr)
        return 2
    return 0
