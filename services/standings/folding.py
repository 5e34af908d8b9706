"""Fold a batch of the global log into projections, in one transaction with their checkpoints (the live fold and
a rebuild share this)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import asyncpg

from services.standings import quarantine
from services.standings.generations import checkpoint_name, tables_of
from services.standings.projections import PROJECTIONS
from services.standings.projections.base import Change, Fold, Projection
from shared.eventstore import Checkpoint, EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoints, save_checkpoints
from shared.messages.readable import UnreadableEvent

E = TypeVar("E")
WHOLE_VALUES = frozenset(projection.name for projection in PROJECTIONS.values() if projection.whole_values)


@dataclass
class Folder:
    """Folds into given generations of some projections; its memory belongs to those generations."""

    store: EventStore
    generations: dict[str, int]
    memory: dict[str, dict[str, Any]] = field(default_factory=dict)
    written: dict[str, Checkpoint] = field(default_factory=dict)
    """Where this folder left each projection: another checkpoint means another process folded meanwhile."""
    quarantined: list[UnreadableEvent] = field(default_factory=list)
    """Streams this folder quarantined (``services.standings.quarantine``)."""

    def forget(self) -> None:
        """Drop what memory holds (a batch that failed half-way may have left part of itself there)."""
        self.memory.clear()
        self.written.clear()

    def retarget(self, generations: dict[str, int]) -> None:
        """Follow a swap: memory of a replaced generation is dropped (it is rebuilt lazily from the streams)."""
        for name, generation in generations.items():
            if self.generations.get(name) != generation:
                self.memory.pop(name, None)
                self.written.pop(name, None)
        self.generations = dict(generations)

    async def checkpoints(self, conn: asyncpg.Connection) -> dict[str, Checkpoint]:
        names = {name: checkpoint_name(name, generation) for name, generation in self.generations.items()}
        saved = await load_checkpoints(conn, list(names.values()))
        return {name: saved[checkpoint] for name, checkpoint in names.items()}

    async def fold(
        self, conn: asyncpg.Connection, events: list[RecordedEvent]
    ) -> list[tuple[RecordedEvent, list[Change]]]:
        """Apply ``events`` (inside the caller's transaction) to each projection that has not yet seen them and
        move its checkpoint; returns the public changes per event."""
        done = await self.checkpoints(conn)
        for name, checkpoint in done.items():
            if name in self.written and self.written[name] != checkpoint:
                self.memory.pop(name, None)
        changes: dict[int, list[Change]] = {}
        folding = [(PROJECTIONS[name], tables_of(PROJECTIONS[name], generation), self.memory.setdefault(name, {}),
                    done[name]) for name, generation in self.generations.items()]
        end = events[-1].checkpoint
        advanced = any(seen < end for *_, seen in folding)
        # Usually no projection has seen any of the batch; then no event's checkpoint needs comparing.
        fresh = all(seen < events[0].checkpoint for *_, seen in folding)
        wanting: dict[tuple[str, str], list[tuple[Projection, dict[str, str], dict[str, Any], Checkpoint]]] = {}
        held_back = await quarantine.load(conn)
        for index, recorded in enumerate(events):
            checkpoint, kind = recorded.checkpoint, (recorded.category, recorded.type)
            held, event = quarantine.held(held_back, recorded), None
            if not held:
                try:
                    event = quarantine.screened(recorded)
                except UnreadableEvent as unreadable:
                    await quarantine.record(conn, unreadable, recorded.position)
                    self.quarantined.append(unreadable)
                    held_back[recorded.stream_id] = recorded.version
                    held = True
            if (targets := wanting.get(kind)) is None:
                targets = wanting[kind] = [f for f in folding if f[0].wants(*kind)]
            for projection, tables, memory, seen in targets:
                if (not fresh and checkpoint <= seen) or (held and not projection.counts_quarantined):
                    continue
                fold = Fold(conn, self.store, tables, memory, recorded, event)
                await projection.apply(fold)
                if fold.changes:
                    changes.setdefault(index, []).extend(fold.changes)
        if advanced:
            for projection, tables, memory, _seen in folding:
                fold = Fold(conn, self.store, tables, memory, events[-1], None)
                await projection.flush(fold)
                if fold.changes:
                    changes.setdefault(len(events) - 1, []).extend(fold.changes)
        await save_checkpoints(conn, {checkpoint_name(name, generation): end
                                      for name, generation in self.generations.items() if end > done[name]})
        for name in self.generations:
            self.written[name] = max(done[name], end)
        return latest_of_whole_values(events, changes)


def latest_of_whole_values(events: Sequence[E], changes: dict[int, list[Change]]) -> list[tuple[E, list[Change]]]:
    """The changes per event, in log order, less those a later change of the batch to the same key of a
    ``whole_values`` projection replaces."""
    replaced: set[tuple[str, str]] = set()
    kept: list[tuple[E, list[Change]]] = []
    for index in sorted(changes, reverse=True):
        mine = []
        for change in reversed(changes[index]):
            if change.projection in WHOLE_VALUES:
                if (change.projection, change.key) in replaced:
                    continue
                replaced.add((change.projection, change.key))
            mine.append(change)
        if mine:
            kept.append((events[index], mine[::-1]))
    return kept[::-1]
