"""Live boards of Phantoms seasons: what a spectator sees of a season now, compactly. The fold keeps each running
season's full state in memory (as the Vortex and Hockey boards do), but the table holds only what
``rules.view(state, None)`` shows: the managers, whose move it is, the game on the ice with its revealed cards
round by round (or the last game played, between games), the post-season stage, and the printed details of every
card shown. The scorepad and results are the seasons projection's."""

from __future__ import annotations

from typing import Any

import msgspec

from services.standings.projections.base import Fold, Projection
from shared.eventstore import RecordedEvent
from shared.games.phantoms.state import Season
from shared.games.phantoms.view import GameView, SeasonView
from shared.play.table import Table

_encoder = msgspec.json.Encoder()


class Board(msgspec.Struct, frozen=True, kw_only=True):
    phase: str
    turn: int
    pending: tuple[int, ...]
    managers: tuple[Any, ...]
    pile_sizes: tuple[int, int, int]
    injuries: tuple[str, ...]
    game: GameView | None
    """The game on the ice; between games, the last one played (``game_over`` true)."""
    game_over: bool
    games_played: int
    stage: Any
    leader: int | None
    champion: int | None
    trading: tuple[int, int] | None
    cards: dict[str, Any]
    """Every card named above: id -> its printed name, position, value, team, bruiser, special."""


class Tracker:
    """One season folded, and the last game seen on the ice."""

    def __init__(self, season_id: str) -> None:
        self.table = Table(season_id)
        self.last_game: GameView | None = None

    def apply(self, recorded: RecordedEvent) -> bytes:
        """Fold one event; the spectator's board after it, or b"" before the season has a state."""
        self.table.apply(recorded)
        return self.board()

    def board(self) -> bytes:
        state, rules = self.table.state, self.table.rules
        if rules is None or not isinstance(state, Season):
            return b""
        view: SeasonView = rules.view(state, None)
        game = view.game
        if game is not None:
            self.last_game = game
        shown = self.last_game
        ids = set(view.injuries)
        for manager in view.managers:
            ids.update(manager.resting)
        if shown is not None:
            ids.update(card for card in shown.table if card)
            ids.update(shown.injured)
            for record in shown.history:
                ids.update(record.cards)
        return _encoder.encode(Board(
            phase=view.phase, turn=view.turn, pending=view.pending, managers=view.managers,
            pile_sizes=view.pile_sizes, injuries=view.injuries, game=shown,
            game_over=game is None and shown is not None,
            games_played=len(view.results), stage=view.stage, leader=view.leader, champion=view.champion,
            trading=view.trading, cards={card: state.cards[card] for card in sorted(ids) if card in state.cards}))


class SeasonBoards(Projection):
    name = "season_boards"
    categories = frozenset({"phantoms"})
    whole_values = True
    tables = {
        "season_boards": "season_id text PRIMARY KEY, version int NOT NULL, running boolean NOT NULL,"
                         " board jsonb NOT NULL, updated_at timestamptz NOT NULL",
    }

    async def apply(self, fold: Fold) -> None:
        recorded = fold.recorded
        if recorded.category != "phantoms":
            return
        seasons: dict[str, tuple[Tracker, bytes]] = fold.memory.setdefault("seasons", {})
        if recorded.stream_id not in seasons:
            tracker = Tracker(recorded.stream_id)
            if recorded.version > 1:
                # After a restart: the season up to the event before this one, straight from the stream.
                for earlier in await fold.store.read_stream(recorded.stream_id, 1, recorded.version - 1):
                    tracker.apply(earlier)
            seasons[recorded.stream_id] = (tracker, tracker.board())
        tracker, shown = seasons[recorded.stream_id]
        board = tracker.apply(recorded)
        if not board:
            return
        ended = tracker.table.ended is not None
        if ended:
            del seasons[recorded.stream_id]
        else:
            seasons[recorded.stream_id] = (tracker, board)
        if board == shown and not ended:
            return
        pending: dict[str, tuple[object, ...]] = fold.memory.setdefault("pending", {})
        pending[recorded.stream_id] = (recorded.stream_id, recorded.version, not ended, board.decode(),
                                       recorded.recorded_at)
        fold.change("season_boards", recorded.stream_id, {
            "season_id": recorded.stream_id, "version": recorded.version, "running": not ended,
            "board": msgspec.Raw(board)})

    async def flush(self, fold: Fold) -> None:
        pending: dict[str, tuple[object, ...]] = fold.memory.pop("pending", {})
        if pending:
            await fold.conn.executemany(
                f"INSERT INTO {fold.t('season_boards')} VALUES ($1, $2, $3, $4, $5) ON CONFLICT (season_id)"
                " DO UPDATE SET version = excluded.version, running = excluded.running, board = excluded.board,"
                " updated_at = excluded.updated_at", list(pending.values()))
