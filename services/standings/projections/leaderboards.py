"""Matchmaking's tournaments as their own streams (``tournament-<id>``) tell them: folded with matchmaking's
``evolve`` and placed with its functions (placings.py), so the leaderboard agrees with the tournament's standings
and final ranking, byes and knockouts included. The fold keeps each running tournament's state in memory (after a
restart it is read again from the stream, up to the event before); the tables hold only what the tournament's
public view shows (no table options). A projection of its own, so that a league that ran before it folds it from
position zero, as it does any new projection."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

import shared.messages.tournaments  # noqa: F401  (registers the tournament.* events, so that they decode)
from services.standings.leaderboard import Placing
from services.standings.placings import format_name, placings, stored
from services.standings.projections.base import Fold, Projection
from shared.messages.readable import read
from shared.tournaments.events import EVENT_TYPES
from shared.tournaments.state import State, evolve

PLACING_COLUMNS = "rank, player_id, points, median_buchholz, rating, games, wins, byes, seed"
EVERY_BATCH_UP_TO = 1_000
"""A field of up to this many players has its leaderboard reported on the feed with each batch that changes it."""
SECONDS_A_PLAYER = 0.0001
"""A bigger field's is reported at most every ``players × SECONDS_A_PLAYER`` seconds (of its events' time): each
report carries every placing (10,000 players, 1.4 MB of JSON), so with each batch (ten a second) the feed of a
10,000-player round alone wrote 14 MB a second (PostgreSQL's jsonb, the WAL, every dashboard's socket)."""


def report_interval(players: int) -> timedelta:
    return timedelta(0) if players <= EVERY_BATCH_UP_TO else timedelta(seconds=players * SECONDS_A_PLAYER)


class Known(msgspec.Struct, frozen=True):
    state: State | None
    version: int
    shown: tuple[dict[str, object], list[Placing]] | None = None
    """The header and placings last written (as stored: placings.stored), to write (and report) only what changed."""
    reported: tuple[dict[str, object], datetime] | None = None
    """The header of the last leaderboard reported on the feed, and when (its batch's last event's time)."""
    owed: list[Placing] | None = None
    """Placings written but not reported yet (a big field between two reports)."""


class Leaderboards(Projection):
    name = "leaderboards"
    categories = frozenset({"tournament"})
    tables = {
        "leaderboards": "tournament_id text PRIMARY KEY, name text NOT NULL, game text NOT NULL,"
                        " format text NOT NULL, status text NOT NULL, rounds_planned int NOT NULL,"
                        " round int NOT NULL",
        "leaderboard_placings": "tournament_id text NOT NULL, rank int NOT NULL, player_id text NOT NULL,"
                                " points float8 NOT NULL, median_buchholz float8 NOT NULL, rating float8,"
                                " games int NOT NULL, wins int NOT NULL, byes int NOT NULL, seed int,"
                                " PRIMARY KEY (tournament_id, player_id)",
    }

    async def apply(self, fold: Fold) -> None:
        recorded = fold.recorded
        if recorded.category != "tournament" or not isinstance(fold.event, EVENT_TYPES) or not fold.public:
            return
        known: dict[str, Known] = fold.memory.setdefault("tournaments", {})
        before = known.get(recorded.stream_id)
        if before is None or before.version != recorded.version - 1:
            before = Known(await earlier(fold), recorded.version - 1)
        known[recorded.stream_id] = msgspec.structs.replace(
            before, state=evolve(before.state, fold.event), version=recorded.version)  # type: ignore[arg-type]
        # Placed and written once per tournament per batch, at the flush: placing a Swiss field costs in
        # proportion to its players, and a batch holds many of a big round's results.
        fold.memory.setdefault("pending", {})[recorded.stream_id] = None

    async def flush(self, fold: Fold) -> None:
        known: dict[str, Known] = fold.memory.setdefault("tournaments", {})
        now = fold.recorded.recorded_at
        pending = fold.memory.pop("pending", {})
        for stream_id in pending:
            entry = known[stream_id]
            state = entry.state
            assert state is not None
            created = state.created
            header = {"tournament_id": created.tournament_id, "name": created.name, "game": created.game,
                      "format": format_name(created.format), "status": state.status, "rounds_planned": state.rounds,
                      "round": state.round}
            rows = placings(state)
            shown = (header, stored(state, rows))
            if shown != entry.shown:
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('leaderboards')} VALUES ($1, $2, $3, $4, $5, $6, $7)"
                    " ON CONFLICT (tournament_id) DO UPDATE SET status = excluded.status,"
                    " rounds_planned = excluded.rounds_planned, round = excluded.round", *header.values())
                if entry.shown is None:
                    await write_placings(fold, created.tournament_id, shown[1])
                elif shown[1] != entry.shown[1]:
                    await update_placings(fold, created.tournament_id, entry.shown[1], shown[1])
                entry = msgspec.structs.replace(entry, shown=shown, owed=rows)
            known[stream_id] = self._reported(fold, entry, now)
            if state.finished:
                known.pop(stream_id, None)
        # A big field's leaderboard held back by the interval goes out with the first batch after it, whatever
        # that batch holds: the feed is never longer behind the tables than that.
        for stream_id, entry in known.items():
            if entry.owed is not None and stream_id not in pending:
                known[stream_id] = self._reported(fold, entry, now)

    @staticmethod
    def _reported(fold: Fold, entry: Known, now: datetime) -> Known:
        """``entry`` after reporting its owed leaderboard on the feed, when its time has come: at once for a small
        field, a changed header (a round started, the tournament finished) or the first report; else once
        ``report_interval`` has passed since the last."""
        if entry.owed is None or entry.shown is None:
            return entry
        header = entry.shown[0]
        last = entry.reported
        if last is not None and last[0] == header and now - last[1] < report_interval(len(entry.owed)):
            return entry
        fold.change("tournaments", str(header["tournament_id"]), {**header, "placings": entry.owed})
        return msgspec.structs.replace(entry, reported=(header, now), owed=None)


async def earlier(fold: Fold) -> State | None:
    """The tournament up to the event before this one, straight from its stream (public events only)."""
    recorded = fold.recorded
    state: State | None = None
    if recorded.version > 1:
        for event in await fold.store.read_stream(recorded.stream_id, 1, recorded.version - 1):
            message = read(event) if event.metadata.visibility is None else None
            if isinstance(message, EVENT_TYPES):
                state = evolve(state, message)  # type: ignore[arg-type]
    return state


async def write_placings(fold: Fold, tournament_id: str, rows: list[Placing]) -> None:
    """All of a tournament's placings, replacing what the table holds (the fold does not know what that is)."""
    await fold.conn.execute(f"DELETE FROM {fold.t('leaderboard_placings')} WHERE tournament_id = $1", tournament_id)
    await _upsert(fold, tournament_id, rows)


async def update_placings(fold: Fold, tournament_id: str, shown: list[Placing], rows: list[Placing]) -> None:
    """Only the placings that differ from ``shown``, which the table holds."""
    before = {p.player_id: p for p in shown}
    gone = before.keys() - {p.player_id for p in rows}
    if gone:
        await fold.conn.execute(f"DELETE FROM {fold.t('leaderboard_placings')}"
                                " WHERE tournament_id = $1 AND player_id = ANY($2::text[])", tournament_id, list(gone))
    await _upsert(fold, tournament_id, [p for p in rows if before.get(p.player_id) != p])


async def _upsert(fold: Fold, tournament_id: str, rows: list[Placing]) -> None:
    if not rows:
        return
    await fold.conn.execute(
        f"INSERT INTO {fold.t('leaderboard_placings')} (tournament_id, {PLACING_COLUMNS})"
        " SELECT $1, * FROM unnest($2::int[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::int[],"
        " $8::int[], $9::int[], $10::int[]) ON CONFLICT (tournament_id, player_id) DO UPDATE SET"
        " rank = excluded.rank, points = excluded.points, median_buchholz = excluded.median_buchholz,"
        " rating = excluded.rating, games = excluded.games, wins = excluded.wins, byes = excluded.byes,"
        " seed = excluded.seed",
        tournament_id, *map(list, zip(*((p.rank, p.player_id, p.points, p.median_buchholz, p.rating, p.games,
                                        p.wins, p.byes, p.seed) for p in rows), strict=True)))
