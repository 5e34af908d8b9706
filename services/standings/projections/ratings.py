"""Player ratings and their history: shared.ratings over the players of each ended game. A seat without a
player id (a pure bot seat) is not rated and does not take part in the update (docs/feeds.md)."""

from __future__ import annotations

from services.standings.projections.base import Fold, Projection
from shared.messages.engine import GameEnded
from shared.messages.registry import message_name
from shared.ratings import Rating, ranks_from_winners, rate


class Ratings(Projection):
    name = "ratings"
    types = frozenset({message_name(GameEnded)})
    tables = {
        "ratings": "player_id text PRIMARY KEY, mu float8 NOT NULL, sigma float8 NOT NULL, ordinal float8 NOT NULL,"
                   " games int NOT NULL, wins int NOT NULL",
        "rating_history": "player_id text NOT NULL, game_id text NOT NULL, tx bigint NOT NULL,"
                          " position bigint NOT NULL, won boolean NOT NULL, mu float8 NOT NULL,"
                          " sigma float8 NOT NULL, ordinal float8 NOT NULL, PRIMARY KEY (player_id, game_id)",
    }

    async def apply(self, fold: Fold) -> None:
        if not isinstance(fold.event, GameEnded):
            return
        opened = await fold.opened()
        fold.forget()
        if opened is None:
            return
        ranks = ranks_from_winners(opened.seats, fold.event.winners)
        seated = [(player, rank) for player, rank in zip(opened.players, ranks, strict=False) if player]
        if len({player for player, _ in seated}) != len(seated) or len(seated) < 2:
            return
        players = [player for player, _ in seated]
        rows = await fold.conn.fetch(
            f"SELECT player_id, mu, sigma FROM {fold.t('ratings')} WHERE player_id = ANY($1::text[])", players)
        known = {row[0]: Rating(row[1], row[2]) for row in rows}
        new = rate([known.get(p, Rating()) for p in players], [rank for _, rank in seated])
        recorded = fold.recorded
        for (player, rank), rating in zip(seated, new, strict=True):
            won = rank == 1
            await fold.conn.execute(
                f"INSERT INTO {fold.t('ratings')} VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (player_id) DO UPDATE"
                " SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                f" games = {fold.t('ratings')}.games + 1, wins = {fold.t('ratings')}.wins + excluded.wins",
                player, rating.mu, rating.sigma, rating.ordinal, int(won))
            await fold.conn.execute(
                f"INSERT INTO {fold.t('rating_history')} VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                player, recorded.stream_id, recorded.tx, recorded.position, won, rating.mu, rating.sigma,
                rating.ordinal)
            fold.change("ratings", player, {"player_id": player, "game_id": recorded.stream_id, "won": won,
                                            "mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal})
