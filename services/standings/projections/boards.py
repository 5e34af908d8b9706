"""Live boards of Vortex races and Hockey games. The fold keeps each running game's full state in memory (it
needs it), but the table holds only the public spectator view, ``rules.view(state, None)``."""

from __future__ import annotations

import msgspec

from services.standings.projections.base import Fold, Projection
from shared.play.table import Table

BOARD_GAMES = ("vortex", "hockeydice")
_encoder = msgspec.json.Encoder()


def public_view(table: Table) -> bytes:
    """The spectator's view, or b"" before the rules' first event made a state."""
    if table.rules is None or table.state is None:
        return b""
    return _encoder.encode(table.rules.view(table.state, None))


class Boards(Projection):
    name = "boards"
    categories = frozenset(BOARD_GAMES)
    whole_values = True
    tables = {
        "boards": "game_id text PRIMARY KEY, game text NOT NULL, version int NOT NULL, running boolean NOT NULL,"
                  " players jsonb NOT NULL, winners jsonb, view jsonb NOT NULL, updated_at timestamptz NOT NULL",
    }

    async def apply(self, fold: Fold) -> None:
        recorded = fold.recorded
        if recorded.category not in BOARD_GAMES:
            return
        tables: dict[str, tuple[Table, bytes]] = fold.memory.setdefault("tables", {})
        if recorded.stream_id not in tables:
            table = Table(recorded.stream_id)
            if recorded.version > 1:
                # After a restart: the state up to the event before this one, straight from the stream.
                earlier = await fold.store.read_stream(recorded.stream_id, 1, recorded.version - 1)
                table.apply_all(earlier)
            tables[recorded.stream_id] = (table, public_view(table))
        table, shown = tables[recorded.stream_id]
        state = table.state
        table.apply(recorded, fold.event)
        if table.state is state and table.ended is None:
            return  # the engine's own records (who acted, the draws used) leave the board as it was
        view = public_view(table)
        if not view:
            return
        ended = table.ended is not None
        if ended:
            del tables[recorded.stream_id]
        else:
            tables[recorded.stream_id] = (table, view)
        if view == shown and not ended:
            return
        opened = table.opened
        assert opened is not None
        players = list(opened.players) + [None] * (opened.seats - len(opened.players))
        winners = list(table.ended.winners) if table.ended else None
        # Written once per game per batch, at the flush: a batch holds many moves of each running game.
        pending: dict[str, tuple[object, ...]] = fold.memory.setdefault("pending", {})
        pending[recorded.stream_id] = (
            recorded.stream_id, opened.game, recorded.version, not ended, _encoder.encode(players),
            None if winners is None else _encoder.encode(winners), view, recorded.recorded_at)
        fold.change("boards", recorded.stream_id, {
            "game_id": recorded.stream_id, "game": opened.game, "version": recorded.version, "running": not ended,
            "players": players, "winners": winners, "view": msgspec.Raw(view)})

    async def flush(self, fold: Fold) -> None:
        pending: dict[str, tuple[object, ...]] = fold.memory.pop("pending", {})
        if pending:
            await fold.conn.execute(
                f"INSERT INTO {fold.t('boards')} SELECT * FROM unnest($1::text[], $2::text[], $3::int[],"
                " $4::boolean[], $5::jsonb[], $6::jsonb[], $7::jsonb[], $8::timestamptz[]) ON CONFLICT (game_id)"
                " DO UPDATE SET version = excluded.version, running = excluded.running, winners = excluded.winners,"
                " view = excluded.view, updated_at = excluded.updated_at",
                *map(list, zip(*pending.values(), strict=True)))
