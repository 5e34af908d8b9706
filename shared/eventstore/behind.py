"""How far a reader of the global log is behind: the events after its checkpoint and the age of the oldest.

The gauges that show it are read every second, and a reader is furthest behind when the league is busiest, so the
cost must not grow with the lag: events are counted exactly up to ``COUNT_CAP``, and beyond it estimated from
positions (the last one stored less the checkpoint's; a position a failed append took and gave up counts too).
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

COUNT_CAP = 10_000
"""Counted to the end, the standings' gauge cost 227 ms a count on average over a 10,000-player Swiss round (its fold
fell 100,000 and more events behind), every second: 27 % of PostgreSQL's statement time."""
# Ordered, so that even the generic plan of this prepared statement walks the read-order index from the checkpoint
# (unordered, PostgreSQL guessed a third of the table and scanned all of it, every second).
BEHIND = """
    SELECT (SELECT count(*) FROM (SELECT 1 FROM events WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint)
                                  ORDER BY tx, position LIMIT $3) AS waiting),
           (SELECT extract(epoch FROM clock_timestamp() - recorded_at) FROM events
            WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint) ORDER BY tx, position LIMIT 1),
           (SELECT max(position) FROM events)
"""


@dataclass(frozen=True)
class Behind:
    events: int
    """Exact below the cap, an estimate from positions from it on."""
    oldest_seconds: float
    """Age of the first event after the checkpoint in the log's read order; 0 when there is none."""


async def behind(conn: asyncpg.Connection, tx: int, position: int, cap: int = COUNT_CAP) -> Behind:
    counted, age, last = await conn.fetchrow(BEHIND, tx, position, cap)
    events = int(counted) if counted < cap else max(int(counted), int(last or 0) - position)
    return Behind(events, float(age or 0.0))
