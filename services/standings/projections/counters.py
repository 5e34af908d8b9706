"""League-wide counters: games opened, finished, abandoned and running, events in the log, and events per minute."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from services.standings.projections.base import Fold, Projection
from shared.messages.engine import GameAbandoned, GameEnded, GameOpened
from shared.messages.registry import message_name

COUNTED = {message_name(GameOpened): "games_opened", message_name(GameEnded): "games_finished",
           message_name(GameAbandoned): "games_abandoned"}
"""The stored types counted, beside every event."""


class Counters(Projection):
    name = "counters"
    counts_quarantined = True  # "events" counts the log's events, readable or not
    tables = {
        "counters": "name text PRIMARY KEY, value bigint NOT NULL",
        "events_per_minute": "minute timestamptz PRIMARY KEY, events int NOT NULL",
    }

    async def apply(self, fold: Fold) -> None:
        memory = fold.memory
        if "pending" not in memory:  # once a batch (``setdefault`` would make two Counters per event)
            memory["pending"], memory["minutes"] = Counter(), Counter()
        pending: Counter[str] = memory["pending"]
        minutes: Counter[object] = memory["minutes"]
        pending["events"] += 1
        at = fold.recorded.recorded_at
        minute = memory.get("minute")
        if minute is None or not minute[0] <= at < minute[1]:  # datetime.replace per event cost more than the rest
            start = at.replace(second=0, microsecond=0)
            minute = memory["minute"] = (start, start + timedelta(minutes=1))
        minutes[minute[0]] += 1
        if (counted := COUNTED.get(fold.recorded.type)) is not None:
            pending[counted] += 1

    async def flush(self, fold: Fold) -> None:
        pending: Counter[str] = fold.memory.pop("pending", Counter())
        minutes: Counter[object] = fold.memory.pop("minutes", Counter())
        if not pending:
            return
        await fold.conn.executemany(
            f"INSERT INTO {fold.t('counters')} VALUES ($1, $2)"
            f" ON CONFLICT (name) DO UPDATE SET value = {fold.t('counters')}.value + excluded.value",
            sorted(pending.items()))
        await fold.conn.executemany(
            f"INSERT INTO {fold.t('events_per_minute')} VALUES ($1, $2)"
            f" ON CONFLICT (minute) DO UPDATE SET events = {fold.t('events_per_minute')}.events + excluded.events",
            sorted(minutes.items()))
        if pending.keys() - {"events"}:
            rows = await fold.conn.fetch(f"SELECT name, value FROM {fold.t('counters')}")
            values = {row[0]: row[1] for row in rows}
            fold.change("counters", "league", league_counters(values))


def league_counters(values: dict[str, int]) -> dict[str, int]:
    opened, finished = values.get("games_opened", 0), values.get("games_finished", 0)
    abandoned = values.get("games_abandoned", 0)
    return {"games_opened": opened, "games_finished": finished, "games_abandoned": abandoned,
            "games_running": opened - finished - abandoned, "events": values.get("events", 0)}
