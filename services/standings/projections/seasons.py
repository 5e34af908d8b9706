"""Phantoms seasons: the seed's Team Scorepad (results grid and wins) and standings per seat, from public events."""

from __future__ import annotations

import json

from services.standings.projections.base import Fold, Projection
from shared.games.phantoms import events as ev
from shared.messages.engine import GameAbandoned
from shared.messages.engine import GameEnded as EngineGameEnded

STANDING_COLUMNS = "seat, player, wins, goals_for, goals_against, played, injuries"


class Seasons(Projection):
    name = "seasons"
    categories = frozenset({"phantoms"})
    tables = {
        "seasons": "season_id text PRIMARY KEY, edition text NOT NULL, seats int NOT NULL, players jsonb NOT NULL,"
                   " running boolean NOT NULL, leader int, champion int, opened_at timestamptz NOT NULL",
        "season_results": "season_id text NOT NULL, seq int NOT NULL, home int NOT NULL, away int NOT NULL,"
                          " home_goals int NOT NULL, away_goals int NOT NULL, winner int, kind text NOT NULL,"
                          " claimed boolean NOT NULL, forfeit boolean NOT NULL, sudden_deaths int NOT NULL,"
                          " PRIMARY KEY (season_id, seq)",
        "season_standings": "season_id text NOT NULL, seat int NOT NULL, player text, wins int NOT NULL,"
                            " goals_for int NOT NULL, goals_against int NOT NULL, played int NOT NULL,"
                            " injuries int NOT NULL, PRIMARY KEY (season_id, seat)",
    }

    async def apply(self, fold: Fold) -> None:
        if not fold.public or fold.recorded.category != "phantoms":
            return
        season = fold.recorded.stream_id
        match fold.event:
            case ev.SeasonOpened(seats=seats, edition=edition):
                opened = await fold.opened()
                players = list(opened.players) if opened else []
                players += [None] * (seats - len(players))
                await fold.conn.execute(
                    f"INSERT INTO {fold.t('seasons')} VALUES ($1, $2, $3, $4, true, NULL, NULL, $5)",
                    season, edition, seats, json.dumps(players), fold.recorded.recorded_at)
                await fold.conn.executemany(
                    f"INSERT INTO {fold.t('season_standings')} VALUES ($1, $2, $3, 0, 0, 0, 0, 0)",
                    [(season, seat, players[seat]) for seat in range(seats)])
                fold.change("seasons", season, {"season_id": season, "edition": edition, "seats": seats,
                                                "players": players, "running": True})
            case ev.GameEnded() as game:
                await self._result(fold, season, game)
            case ev.InjuryReplaced(seat=seat) | ev.InjuredPlayerStays(seat=seat):
                await fold.conn.execute(
                    f"UPDATE {fold.t('season_standings')} SET injuries = injuries + 1"
                    " WHERE season_id = $1 AND seat = $2", season, seat)
                await self._standing_changed(fold, season, seat)
            case ev.SeasonEnded(leader=leader):
                await fold.conn.execute(f"UPDATE {fold.t('seasons')} SET leader = $2 WHERE season_id = $1",
                                        season, leader)
                fold.change("seasons", season, {"season_id": season, "leader": leader})
            case ev.ChampionDecided(seat=seat):
                await fold.conn.execute(f"UPDATE {fold.t('seasons')} SET champion = $2 WHERE season_id = $1",
                                        season, seat)
                fold.change("seasons", season, {"season_id": season, "champion": seat})
            case EngineGameEnded() | GameAbandoned():
                fold.forget()
                await fold.conn.execute(f"UPDATE {fold.t('seasons')} SET running = false WHERE season_id = $1",
                                        season)
                fold.change("seasons", season, {"season_id": season, "running": False})
            case _:
                pass

    async def _result(self, fold: Fold, season: str, game: ev.GameEnded) -> None:
        seq = await fold.conn.fetchval(
            f"SELECT count(*) FROM {fold.t('season_results')} WHERE season_id = $1", season)
        await fold.conn.execute(
            f"INSERT INTO {fold.t('season_results')} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            season, seq, game.home, game.away, game.home_goals, game.away_goals, game.winner, game.kind,
            game.claimed, game.forfeit, game.sudden_deaths)
        if game.kind == "regular":
            for seat, scored, conceded in ((game.home, game.home_goals, game.away_goals),
                                           (game.away, game.away_goals, game.home_goals)):
                await fold.conn.execute(
                    f"UPDATE {fold.t('season_standings')} SET played = played + 1, goals_for = goals_for + $3,"
                    " goals_against = goals_against + $4, wins = wins + $5 WHERE season_id = $1 AND seat = $2",
                    season, seat, scored, conceded, int(game.winner == seat))
        fold.change("season_results", season, {
            "season_id": season, "seq": seq, "home": game.home, "away": game.away, "home_goals": game.home_goals,
            "away_goals": game.away_goals, "winner": game.winner, "kind": game.kind})
        for seat in (game.home, game.away):
            await self._standing_changed(fold, season, seat)

    async def _standing_changed(self, fold: Fold, season: str, seat: int) -> None:
        row = await fold.conn.fetchrow(
            f"SELECT {STANDING_COLUMNS} FROM {fold.t('season_standings')} WHERE season_id = $1 AND seat = $2",
            season, seat)
        if row is not None:
            fold.change("season_standings", season, {"season_id": season, **dict(row)})
