"""Registered players' names (``player.Registered``, public), so that every board and table can show a name where
it would otherwise show an id."""

from __future__ import annotations

from services.standings.projections.base import Fold, Projection
from shared.messages.players import PlayerRegistered


class Players(Projection):
    name = "players"
    categories = frozenset({"player"})
    tables = {"players": "player_id text PRIMARY KEY, name text NOT NULL, registered_at timestamptz NOT NULL"}

    async def apply(self, fold: Fold) -> None:
        if fold.recorded.category != "player" or not fold.public or not isinstance(fold.event, PlayerRegistered):
            return
        player = fold.event
        await fold.conn.execute(f"INSERT INTO {fold.t('players')} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                player.player_id, player.name, fold.recorded.recorded_at)
        fold.change("players", player.player_id, {"player_id": player.player_id, "name": player.name})
