"""Rebuild projections from position zero into a fresh generation of tables while the serving one keeps serving;
then, holding the generation rows, catch up to exactly where the live fold stands, compare the two generations
row by row, and swap (one UPDATE, in that same transaction). A rebuild never overtakes the live fold."""

from __future__ import annotations

import time
from collections.abc import Callable

import asyncpg
import msgspec

from services.standings import generations, quarantine
from services.standings.folding import Folder
from services.standings.generations import checkpoint_name, table_name
from services.standings.projections import PROJECTIONS
from shared.eventstore import Checkpoint, EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint

BATCH = 2000
COUNT_UPTO = """
    SELECT count(*) FROM events WHERE (tx, position) <= ($1::bigint::text::xid8, $2::bigint)
"""

Progress = Callable[[int, int], None]
"""(events folded, events to fold)"""


class TableDiff(msgspec.Struct, frozen=True):
    table: str
    only_rebuilt: int
    only_live: int


class RebuildReport(msgspec.Struct, frozen=True, kw_only=True):
    projections: dict[str, int]
    """projection -> the rebuilt generation"""
    events: int
    seconds: float
    checkpoint: Checkpoint
    diffs: list[TableDiff]
    swapped: bool
    quarantined: list[str] = []
    """Streams this rebuild found unreadable and left out from there on (``services.standings.quarantine``): the
    live projection folded them before they were damaged, so the two differ by what those streams gave."""

    @property
    def equal(self) -> bool:
        return all(d.only_rebuilt == 0 and d.only_live == 0 for d in self.diffs)


class RebuildMismatch(Exception):
    def __init__(self, report: RebuildReport) -> None:
        differing = ", ".join(f"{d.table} (+{d.only_rebuilt}/-{d.only_live})" for d in report.diffs
                              if d.only_rebuilt or d.only_live)
        super().__init__(f"the rebuilt projection differs from the live one: {differing}; nothing swapped")
        self.report = report


def names_of(target: str) -> list[str]:
    if target == "all":
        return list(PROJECTIONS)
    if target not in PROJECTIONS:
        raise KeyError(f"no projection {target!r}; choose one of {', '.join(PROJECTIONS)} or all")
    return [target]


async def live_checkpoint(conn: asyncpg.Connection, serving: dict[str, int], names: list[str]) -> Checkpoint:
    return min([await load_checkpoint(conn, checkpoint_name(n, serving[n])) for n in names])


async def _fold_upto(store: EventStore, folder: Folder, after: Checkpoint, upto: Checkpoint,
                     conn: asyncpg.Connection | None, on_batch: Callable[[int], None]) -> Checkpoint:
    """Fold events in (after, upto]; each batch in its own transaction, or all inside ``conn``'s open one."""
    while after < upto:
        events: list[RecordedEvent] = [e for e in await store.read_all(after, BATCH) if e.checkpoint <= upto]
        if not events:
            break
        if conn is None:

            async def fold_batch(events: list[RecordedEvent] = events) -> None:
                async with store.pool.acquire() as own, own.transaction():
                    await folder.fold(own, events)

            await quarantine.folded_around(store, folder.forget, fold_batch, folder.quarantined.append)
        else:
            await folder.fold(conn, events)
        after = events[-1].checkpoint
        on_batch(len(events))
    return after


async def compare(conn: asyncpg.Connection, names: list[str], serving: dict[str, int],
                  rebuilt: dict[str, int]) -> list[TableDiff]:
    diffs = []
    for name in names:
        for base in PROJECTIONS[name].tables:
            new, old = table_name(base, rebuilt[name]), table_name(base, serving[name])
            only_new = await conn.fetchval(f"SELECT count(*) FROM (TABLE {new} EXCEPT ALL TABLE {old}) d")
            only_old = await conn.fetchval(f"SELECT count(*) FROM (TABLE {old} EXCEPT ALL TABLE {new}) d")
            diffs.append(TableDiff(base, only_new, only_old))
    return diffs


async def rebuild(store: EventStore, target: str, *, progress: Progress | None = None, swap: bool = True,
                  verify: bool = True) -> RebuildReport:
    """``swap=False`` only compares (and drops the fresh tables); ``verify`` refuses to swap when they differ."""
    names = names_of(target)
    started = time.monotonic()
    async with store.pool.acquire() as conn:
        await generations.bootstrap(conn)
        serving = await generations.current(conn)
        fresh = {n: serving[n] + 1 for n in names}
        for n in names:
            await generations.drop_tables(conn, PROJECTIONS[n], fresh[n])
            await conn.execute("DELETE FROM checkpoints WHERE name = $1", checkpoint_name(n, fresh[n]))
            await generations.create_tables(conn, PROJECTIONS[n], fresh[n])
        upto = await live_checkpoint(conn, serving, names)
        total = await conn.fetchval(COUNT_UPTO, upto.tx, upto.position)
    folder = Folder(store, fresh)
    done = 0

    def advanced(count: int) -> None:
        nonlocal done, total
        done += count
        total = max(total, done)
        if progress:
            progress(done, total)

    after = Checkpoint()
    while True:
        after = await _fold_upto(store, folder, after, upto, None, advanced)
        async with store.pool.acquire() as conn:
            newer = await live_checkpoint(conn, serving, names)
            if newer == upto:
                break
            total += await conn.fetchval(COUNT_UPTO, newer.tx, newer.position) - \
                await conn.fetchval(COUNT_UPTO, upto.tx, upto.position)
            upto = newer
    async with store.pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        try:
            # The live fold waits here (it takes these rows FOR SHARE) and continues on whichever generation won.
            locked = await generations.current(conn, lock="UPDATE")
            if any(locked[n] != serving[n] for n in names):
                raise RuntimeError("another rebuild swapped these projections meanwhile; run it again")
            upto = await live_checkpoint(conn, serving, names)
            after = await _fold_upto(store, folder, after, upto, conn, advanced)
            diffs = await compare(conn, names, serving, fresh) if verify or not swap else []
            report = RebuildReport(projections=fresh, events=done, seconds=time.monotonic() - started,
                                   checkpoint=after, diffs=diffs, swapped=swap,
                                   quarantined=sorted({q.stream_id for q in folder.quarantined}))
            if swap and verify and not report.equal and not report.quarantined:
                raise RebuildMismatch(report)
            if swap:
                for n in names:
                    await conn.execute("UPDATE standings_generations SET generation = $2 WHERE projection = $1",
                                       n, fresh[n])
        except BaseException:
            await tx.rollback()
            await _drop(store, names, fresh)
            raise
        await tx.commit()
    await _drop(store, names, serving if swap else fresh)
    return report


async def _drop(store: EventStore, names: list[str], which: dict[str, int]) -> None:
    async with store.pool.acquire() as conn:
        for n in names:
            await generations.drop_tables(conn, PROJECTIONS[n], which[n])
            await conn.execute("DELETE FROM checkpoints WHERE name = $1", checkpoint_name(n, which[n]))
