"""Every game of the league, as its stream opens and ends it (``engine.GameOpened`` / ``engine.GameEnded``): which
game, who sits where (people and bots), the tournament table it belongs to, running or with its winners. One row
per game plus one per seated player, so that a player's games and the finished games of any kind are one indexed
read. ``position`` is the opening event's place in the log: newest first is ``position`` descending."""

from __future__ import annotations

import json

from services.standings.projections.base import Fold, Projection
from shared.messages.engine import GameEnded, GameOpened
from shared.messages.registry import message_name


class Games(Projection):
    name = "games"
    types = frozenset({message_name(GameOpened), message_name(GameEnded)})
    tables = {
        "games": "game_id text PRIMARY KEY, position bigint NOT NULL UNIQUE, game text NOT NULL, seats int NOT NULL,"
                 " players jsonb NOT NULL, bots jsonb NOT NULL, tournament_id text, round int, table_no int,"
                 " running boolean NOT NULL, winners jsonb, opened_at timestamptz NOT NULL, ended_at timestamptz",
        "player_games": "player_id text NOT NULL, position bigint NOT NULL, seat int NOT NULL,"
                        " game_id text NOT NULL, PRIMARY KEY (player_id, position, seat)",
    }

    async def apply(self, fold: Fold) -> None:
        recorded = fold.recorded
        match fold.event:
            case GameOpened() as opened:
                players = list(opened.players) + [None] * (opened.seats - len(opened.players))
                bots = list(opened.bots) + [None] * (opened.seats - len(opened.bots))
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('games')} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, NULL, $10,"
                    " NULL) ON CONFLICT DO NOTHING", recorded.stream_id, recorded.position, opened.game,
                    opened.seats, json.dumps(players), json.dumps(bots), opened.tournament_id, opened.round,
                    opened.table, recorded.recorded_at)
                await fold.conn.executemany(
                    f"INSERT INTO {fold.t('player_games')} VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    [(player, recorded.position, seat, recorded.stream_id)
                     for seat, player in enumerate(players) if player])
                fold.change("games", recorded.stream_id, {
                    "game_id": recorded.stream_id, "game": opened.game, "running": True, "players": players,
                    "bots": bots, "tournament_id": opened.tournament_id, "winners": None})
            case GameEnded(winners=winners):
                found = await fold.conn.fetchval(
                    f"UPDATE {fold.t('games')} SET running = false, winners = $2, ended_at = $3 WHERE game_id = $1"
                    " RETURNING game", recorded.stream_id, json.dumps(list(winners)), recorded.recorded_at)
                if found is not None:
                    fold.change("games", recorded.stream_id, {"game_id": recorded.stream_id, "game": found,
                                                             "running": False, "winners": list(winners)})
            case _:
                pass
