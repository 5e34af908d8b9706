"""A running Swiss tournament's placings are stored unranked and ranked when read (services/standings/placings.py):
PostgreSQL's ``READ_ORDER`` must give exactly the tournament's own standings, ties on points, Median-Buchholz and
rating included, after every result of a tournament played with random winners."""

from __future__ import annotations

import random

import asyncpg
import msgspec

from services.standings.leaderboard import Placing
from services.standings.placings import READ_ORDER, UNRANKED, placings, ranked, stored
from services.standings.projections.leaderboards import PLACING_COLUMNS, Leaderboards
from shared.tournaments.commands import CreateTournament, RecordResult, Register, Start
from shared.tournaments.formats import Swiss
from tests.tournament_states import apply

PLAYERS = 24
ROUNDS = 4


async def read_back(conn: asyncpg.Connection, rows: list[Placing]) -> list[Placing]:
    await conn.execute("TRUNCATE placings")
    await conn.executemany(f"INSERT INTO placings (tournament_id, {PLACING_COLUMNS}) VALUES"
                           " ('t1', $1, $2, $3, $4, $5, $6, $7, $8, $9)",
                           [(p.rank, p.player_id, p.points, p.median_buchholz, p.rating, p.games, p.wins, p.byes,
                             p.seed) for p in rows])
    found = await conn.fetch(f"SELECT {PLACING_COLUMNS} FROM placings WHERE tournament_id = 't1'"
                             f" ORDER BY {READ_ORDER}")
    return ranked([msgspec.convert(dict(r), Placing) for r in found])


async def test_a_running_swiss_tournament_read_in_read_order_is_placed_as_its_standings(pool: asyncpg.Pool) -> None:
    choose = random.Random(7)
    players = [f"p{n:02d}" for n in range(PLAYERS)]
    # Few distinct ratings: many ties for the seed to break.
    state = apply(None, CreateTournament(tournament_id="t1", name="Cup", game="hockeydice",
                                         format=Swiss(table_size=2, rounds=ROUNDS), max_players=PLAYERS, seats=(2, 2)))
    for player in players:
        state = apply(state, Register(player_id=player))
    state = apply(state, Start(ratings={p: float(choose.choice((0, 1, 2))) for p in players}))
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(f"CREATE TEMP TABLE placings ({Leaderboards.tables['leaderboard_placings']})"
                           " ON COMMIT DROP")
        checked = 0
        while state.ranking is None:
            game = choose.choice([g for g in state.games if g.winners is None])
            state = apply(state, RecordResult(game_id=game.game_id, winners=(choose.randrange(2),)))
            placed = placings(state)
            kept = stored(state, placed)
            if state.ranking is None:
                assert {p.rank for p in kept} == {UNRANKED}
            assert await read_back(conn, kept) == placed, f"after {checked} results"
            checked += 1
    assert checked == ROUNDS * PLAYERS // 2
