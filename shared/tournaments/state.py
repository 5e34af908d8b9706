"""A tournament folded from its events."""

from __future__ import annotations

from typing import assert_never

import msgspec
from msgspec.structs import replace

from shared.tournaments.events import (
    Event,
    PlayerRegistered,
    ResultRecorded,
    RoundCompleted,
    RoundStarted,
    Seed,
    SeriesGameStarted,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
)


class Game(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int
    game_id: str
    players: tuple[str, ...]
    winners: tuple[str, ...] | None = None
    """None until the game has ended."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    created: TournamentCreated
    registered: tuple[PlayerRegistered, ...] = ()
    seeds: tuple[Seed, ...] = ()
    rounds: int = 0
    round: int = 0
    games: tuple[Game, ...] = ()
    byes: tuple[tuple[int, str], ...] = ()
    """(round, player) for each bye given."""
    brackets: tuple[tuple[tuple[str, ...], ...], ...] = ()
    """Elimination: each round's pairs in bracket order."""
    completed: int = 0
    ranking: tuple[str, ...] | None = None

    @property
    def started(self) -> bool:
        return bool(self.seeds)

    @property
    def finished(self) -> bool:
        return self.ranking is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "running" if self.started else "registering"

    def player_ids(self) -> list[str]:
        return [r.player_id for r in self.registered]

    def bot_of(self, player_id: str) -> str | None:
        return next((r.bot for r in self.registered if r.player_id == player_id), None)

    def game(self, game_id: str) -> Game | None:
        return next((g for g in self.games if g.game_id == game_id), None)

    def games_of(self, round_: int) -> list[Game]:
        return [g for g in self.games if g.round == round_]


def evolve(state: State | None, event: Event) -> State:
    if isinstance(event, TournamentCreated):
        return State(created=event)
    assert state is not None, f"{type(event).__name__} before TournamentCreated"
    match event:
        case PlayerRegistered():
            return replace(state, registered=(*state.registered, event))
        case TournamentStarted(seeds=seeds, rounds=rounds):
            return replace(state, seeds=seeds, rounds=rounds)
        case RoundStarted(round=round_, tables=tables, byes=byes, bracket=bracket):
            games = tuple(Game(round=round_, table=t.table, game_id=t.game_id, players=t.players) for t in tables)
            return replace(state, round=round_, games=state.games + games,
                           byes=state.byes + tuple((round_, p) for p in byes),
                           brackets=(*state.brackets, bracket) if bracket else state.brackets)
        case SeriesGameStarted(round=round_, seating=seating):
            game = Game(round=round_, table=seating.table, game_id=seating.game_id, players=seating.players)
            return replace(state, games=(*state.games, game))
        case ResultRecorded(game_id=game_id, winners=winners):
            return replace(state, games=tuple(replace(g, winners=winners) if g.game_id == game_id else g
                                              for g in state.games))
        case RoundCompleted(round=round_):
            return replace(state, completed=round_)
        case TournamentFinished(ranking=ranking):
            return replace(state, ranking=ranking)
        case TournamentCreated():
            raise AssertionError("handled above")
        case _:
            assert_never(event)


def fold(events: list[Event]) -> State | None:
    state: State | None = None
    for event in events:
        state = evolve(state, event)
    return state
