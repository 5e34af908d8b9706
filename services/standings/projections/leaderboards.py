"""Matchmaking's tournaments as their own streams (``tournament-<id>``) tell them: folded with matchmaking's
``evolve`` and placed with its functions (placings.py), so the leaderboard agrees with the tournament's standings
and final ranking, byes and knockouts included. The fold keeps each running tournament's state in memory (after a
restart it is read again from the stream, up to the event before); the tables hold only what the tournament's
public view shows (no table options). A projection of its own, so that a league that ran before it folds it from
position zero, as it does any new projection."""

from __future__ import annotations

import msgspec

import shared.messages.tournaments  # noqa: F401  (registers the tournament.* events, so that they decode)
from services.standings.leaderboard import Placing
from services.standings.placings import format_name, placings
from services.standings.projections.base import Fold, Projection
from shared.messages.readable import read
from shared.tournaments.events import EVENT_TYPES
from shared.tournaments.state import State, evolve

PLACING_COLUMNS = "rank, player_id, points, median_buchholz, rating, games, wins, byes, seed"


class Known(msgspec.Struct, frozen=True):
    state: State | None
    version: int
    shown: tuple[object, ...] = ()
    """The header and placings last written, to write (and report) only what changed."""


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
        state = evolve(before.state, fold.event)  # type: ignore[arg-type]
        created = state.created
        header = {"tournament_id": created.tournament_id, "name": created.name, "game": created.game,
                  "format": format_name(created.format), "status": state.status, "rounds_planned": state.rounds,
                  "round": state.round}
        rows = placings(state)
        shown = (header, rows)
        if state.finished:
            known.pop(recorded.stream_id, None)
        else:
            known[recorded.stream_id] = Known(state, recorded.version, shown)
        if shown == before.shown:
            return
        await fold.conn.execute(
            f"INSERT INTO {fold.t('leaderboards')} VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tournament_id)"
            " DO UPDATE SET status = excluded.status, rounds_planned = excluded.rounds_planned,"
            " round = excluded.round", *header.values())
        if not before.shown or rows != before.shown[1]:
            await write_placings(fold, created.tournament_id, rows)
        fold.change("tournaments", created.tournament_id, {**header, "placings": rows})


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
    table = fold.t("leaderboard_placings")
    await fold.conn.execute(f"DELETE FROM {table} WHERE tournament_id = $1", tournament_id)
    await fold.conn.executemany(
        f"INSERT INTO {table} (tournament_id, {PLACING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [(tournament_id, p.rank, p.player_id, p.points, p.median_buchholz, p.rating, p.games, p.wins, p.byes,
          p.seed) for p in rows])

