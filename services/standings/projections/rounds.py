"""The rounds of tournaments run by matchmaking, from their own streams: when and how each was created (for
"newest first" and the bracket's best-of), and per round its byes, its bracket (single elimination) and, once
the round is complete, the standings after it (``placings``, with Median-Buchholz). The pairings and results
themselves are the tournament's games (projections/tournaments.py). Nothing is kept in memory: a round's
standings are folded from the tournament's stream when its ``RoundCompleted`` comes, once per round."""

from __future__ import annotations

import json
from typing import assert_never

import msgspec

import shared.messages.tournaments  # noqa: F401  (registers the tournament.* events, so that they decode)
from services.standings.placings import format_name, placings
from services.standings.projections.base import Fold, Projection
from services.standings.projections.leaderboards import earlier
from shared.tournaments.events import RoundCompleted, RoundStarted, TournamentCreated, TournamentStarted
from shared.tournaments.formats import Elimination, Format, Swiss
from shared.tournaments.state import evolve

_encoder = msgspec.json.Encoder()


def format_details(fmt: Format) -> tuple[int | None, int | None]:
    """(best_of, table_size) of a format."""
    match fmt:
        case Swiss(table_size=size):
            return None, size
        case Elimination(best_of=best_of):
            return best_of, 2
        case _:
            assert_never(fmt)


class Rounds(Projection):
    name = "rounds"
    categories = frozenset({"tournament"})
    tables = {
        "tournament_info": "tournament_id text PRIMARY KEY, position bigint NOT NULL, name text NOT NULL,"
                           " game text NOT NULL, format text NOT NULL, best_of int, table_size int,"
                           " created_at timestamptz NOT NULL, seeds jsonb",
        "tournament_rounds": "tournament_id text NOT NULL, round int NOT NULL, byes jsonb NOT NULL,"
                             " bracket jsonb NOT NULL, completed boolean NOT NULL, standings jsonb,"
                             " started_at timestamptz NOT NULL, PRIMARY KEY (tournament_id, round)",
    }

    async def apply(self, fold: Fold) -> None:
        recorded = fold.recorded
        if recorded.category != "tournament" or not fold.public:
            return
        tournament = recorded.stream_id.split("-", 1)[1]
        match fold.event:
            case TournamentCreated() as created:
                best_of, table_size = format_details(created.format)
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('tournament_info')} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL)"
                    " ON CONFLICT DO NOTHING", created.tournament_id, recorded.position, created.name, created.game,
                    format_name(created.format), best_of, table_size, recorded.recorded_at)
            case TournamentStarted(seeds=seeds):
                await fold.conn.execute(f"UPDATE {fold.t('tournament_info')} SET seeds = $2 WHERE tournament_id = $1",
                                        tournament, json.dumps([s.player_id for s in seeds]))
            case RoundStarted(round=number, byes=byes, bracket=bracket):
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('tournament_rounds')} VALUES ($1, $2, $3, $4, false, NULL, $5)"
                    " ON CONFLICT DO NOTHING", tournament, number, json.dumps(list(byes)),
                    json.dumps([list(pair) for pair in bracket]), recorded.recorded_at)
                fold.change("rounds", tournament, {"tournament_id": tournament, "round": number, "completed": False})
            case RoundCompleted(round=number):
                state = await earlier(fold)
                if state is None:
                    return
                standings = placings(evolve(state, fold.event))
                await fold.conn.execute(
                    f"UPDATE {fold.t('tournament_rounds')} SET completed = true, standings = $3"
                    " WHERE tournament_id = $1 AND round = $2", tournament, number,
                    _encoder.encode(standings).decode())
                fold.change("rounds", tournament, {"tournament_id": tournament, "round": number, "completed": True})
            case _:
                pass
