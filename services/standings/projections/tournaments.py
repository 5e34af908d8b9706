"""Tournament games as the game streams tell them (GameOpened's tournament_id, round, table, players; GameEnded's
winners). A tournament known only from its games is placed from these rows when read (leaderboard.py); one run by
matchmaking is placed from its own stream (leaderboards.py)."""

from __future__ import annotations

import json

from services.standings.projections.base import Fold, Projection
from shared.messages.engine import GameAbandoned, GameEnded, GameOpened
from shared.messages.registry import message_name


class Tournaments(Projection):
    name = "tournaments"
    types = frozenset({message_name(GameOpened), message_name(GameEnded), message_name(GameAbandoned)})
    tables = {
        "tournament_games": "tournament_id text NOT NULL, game_id text NOT NULL, round int, table_no int,"
                            " game text NOT NULL, players jsonb NOT NULL, winners jsonb, running boolean NOT NULL,"
                            " PRIMARY KEY (tournament_id, game_id)",
    }

    async def apply(self, fold: Fold) -> None:
        match fold.event:
            case GameOpened(tournament_id=str(tournament)) as opened:
                players = list(opened.players) + [None] * (opened.seats - len(opened.players))
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('tournament_games')} VALUES ($1, $2, $3, $4, $5, $6, NULL, true)",
                    tournament, fold.recorded.stream_id, opened.round, opened.table, opened.game,
                    json.dumps(players))
                fold.change("tournaments", tournament, {
                    "tournament_id": tournament, "game_id": fold.recorded.stream_id, "round": opened.round,
                    "table": opened.table, "game": opened.game, "players": players, "running": True})
            case GameEnded() | GameAbandoned():
                winners = fold.event.winners if isinstance(fold.event, GameEnded) else ()  # abandoned: nobody won
                opening = await fold.opened()
                fold.forget()
                if opening is None or opening.tournament_id is None:
                    return
                await fold.conn.execute(
                    f"UPDATE {fold.t('tournament_games')} SET winners = $3, running = false"
                    " WHERE tournament_id = $1 AND game_id = $2",
                    opening.tournament_id, fold.recorded.stream_id, json.dumps(list(winners)))
                fold.change("tournaments", opening.tournament_id, {
                    "tournament_id": opening.tournament_id, "game_id": fold.recorded.stream_id,
                    "winners": list(winners), "running": False})
            case _:
                pass
