"""A big field's leaderboard goes on the feed at most every ``report_interval`` of the log's time, and at once when
its round or status changes; its tables are written with every batch all the same (services/standings/projections/
leaderboards.py). Driven through the projection's own fold, on tables of this test's transaction."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import msgspec
import pytest

from services.standings.projections import leaderboards
from services.standings.projections.base import Change, Fold
from services.standings.projections.leaderboards import Leaderboards, report_interval
from shared.eventstore import EventStore, Metadata, RecordedEvent
from shared.tournaments.commands import Command, CreateTournament, RecordResult, Register, Start
from shared.tournaments.decide import decide
from shared.tournaments.events import Event
from shared.tournaments.formats import Swiss
from shared.tournaments.state import State, evolve

START = datetime(2026, 11, 29, 12, tzinfo=UTC)
PLAYERS = 6


def test_a_field_is_reported_with_every_batch_up_to_a_thousand_players_then_less_often_as_it_grows() -> None:
    assert report_interval(2) == report_interval(1_000) == timedelta(0)
    assert report_interval(10_000) == timedelta(seconds=1)
    assert report_interval(50_000) == timedelta(seconds=5)


class Tournament:
    """One tournament's stream, folded into the projection a batch at a time, each batch at a given time."""

    def __init__(self, conn: asyncpg.Connection, store: EventStore) -> None:
        self.conn, self.store = conn, store
        self.projection = Leaderboards()
        self.tables = {base: f"t_{base}" for base in Leaderboards.tables}
        self.memory: dict[str, Any] = {}
        self.state: State | None = None
        self.version = 0

    def recorded(self, event: Any, at: datetime, stream_id: str = "tournament-t1") -> RecordedEvent:
        self.version += 1
        return RecordedEvent(position=self.version, tx=self.version, event_id=uuid.uuid4(), stream_id=stream_id,
                             version=self.version, type=type(event).__struct_config__.tag, schema_version=1,
                             data=msgspec.json.encode(event), metadata=Metadata(correlation_id="c", actor="test"),
                             recorded_at=at, prev_hash=bytes(32), hash=bytes(32))

    async def batch(self, at: datetime, *commands: Command) -> list[Change]:
        """The events of ``commands`` as one batch of the log at ``at`` (none: a batch of other streams only)."""
        events: list[Event] = []
        for command in commands:
            for event in decide(self.state, command):
                self.state = evolve(self.state, event)
                events.append(event)
        last = None
        for event in events:
            last = self.recorded(event, at)
            await self.projection.apply(Fold(self.conn, self.store, self.tables, self.memory, last, event))
        if last is None:  # the batch's last event belongs to another stream
            last = RecordedEvent(position=0, tx=0, event_id=uuid.uuid4(), stream_id="hockeydice-x", version=1,
                                 type="hockeydice.Other", schema_version=1, data=b"{}",
                                 metadata=Metadata(correlation_id="c", actor="test"), recorded_at=at,
                                 prev_hash=bytes(32), hash=bytes(32))
        fold = Fold(self.conn, self.store, self.tables, self.memory, last, None)
        await self.projection.flush(fold)
        return fold.changes

    async def placings_stored(self) -> dict[str, float]:
        rows = await self.conn.fetch("SELECT player_id, points FROM t_leaderboard_placings")
        return {row["player_id"]: row["points"] for row in rows}


@pytest.fixture
async def tournament(pool: asyncpg.Pool, store: EventStore, monkeypatch: pytest.MonkeyPatch) -> Any:
    # Six players stand for a big field: reported at most every 6 × 2 = 12 seconds.
    monkeypatch.setattr(leaderboards, "EVERY_BATCH_UP_TO", 2)
    monkeypatch.setattr(leaderboards, "SECONDS_A_PLAYER", 2.0)
    async with pool.acquire() as conn, conn.transaction():
        for base, columns in Leaderboards.tables.items():
            await conn.execute(f"CREATE TEMP TABLE t_{base} ({columns}) ON COMMIT DROP")
        yield Tournament(conn, store)


def placings_of(changes: list[Change]) -> list[list[dict[str, Any]]]:
    return [msgspec.to_builtins(change.data)["placings"] for change in changes if change.projection == "tournaments"]


async def test_a_big_field_s_leaderboard_is_written_each_batch_and_reported_once_an_interval(
    tournament: Tournament,
) -> None:
    players = [f"p{n}" for n in range(PLAYERS)]
    started = await tournament.batch(
        START, CreateTournament(tournament_id="t1", name="Cup", game="hockeydice", format=Swiss(table_size=2),
                                max_players=PLAYERS, seats=(2, 2)),
        *(Register(player_id=p) for p in players), Start())
    assert len(placings_of(started)) == 1, "the first leaderboard goes out at once"
    assert tournament.state is not None
    first, second, third = tournament.state.games[:3]

    held = await tournament.batch(START + timedelta(seconds=1), RecordResult(game_id=first.game_id, winners=(0,)))
    assert held == [], "a result a second later waits for the interval"
    assert (await tournament.placings_stored())[first.players[0]] == 1, "while its tables are current"
    assert await tournament.batch(START + timedelta(seconds=5)) == []

    (owed,) = placings_of(await tournament.batch(START + timedelta(seconds=13)))
    assert {p["player_id"]: p["points"] for p in owed}[first.players[0]] == 1, \
        "the first batch after the interval carries it, though it holds none of the tournament's events"
    assert await tournament.batch(START + timedelta(seconds=14)) == [], "reported once"

    assert await tournament.batch(START + timedelta(seconds=15),
                                  RecordResult(game_id=second.game_id, winners=(1,))) == []
    (round_two,) = placings_of(await tournament.batch(START + timedelta(seconds=16),
                                                      RecordResult(game_id=third.game_id, winners=(0,))))
    assert len([p for p in round_two if p["points"] == 1]) == 3, \
        "the round's last result starts the next round: a changed header goes out at once"
