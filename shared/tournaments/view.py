"""A tournament as others see it: players, rounds with their tables and games, standings and the ranking."""

from __future__ import annotations

import msgspec

from shared.tournaments.formats import Format
from shared.tournaments.rounds import swiss_standings
from shared.tournaments.scoring import Standing
from shared.tournaments.state import State


class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    bot: str | None = None


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    players: tuple[str, ...]
    winners: tuple[str, ...] | None = None


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    games: tuple[GameResult, ...]
    """One game, or the games of a best-of-N series so far."""


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    tables: tuple[TableView, ...]
    byes: tuple[str, ...] = ()
    completed: bool = False


class TournamentView(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    name: str
    game: str
    options: msgspec.Raw
    format: Format
    max_players: int
    status: str
    """registering, running or finished."""
    version: int
    players: tuple[Entrant, ...]
    rounds_planned: int
    rounds: tuple[RoundView, ...]
    standings: tuple[Standing, ...]
    """Points (a game won, shared by winners who tie; a bye), Median-Buchholz, rating at the start."""
    ranking: tuple[str, ...] | None = None
    organiser: str | None = None
    """The player who created it and alone may start it (None: the league)."""


def view(state: State, version: int) -> TournamentView:
    created = state.created
    rounds = []
    for number in range(1, state.round + 1):
        games = state.games_of(number)
        tables = []
        for table in sorted({g.table for g in games}):
            results = tuple(GameResult(game_id=g.game_id, players=g.players, winners=g.winners)
                            for g in games if g.table == table)
            tables.append(TableView(table=table, games=results))
        rounds.append(RoundView(round=number, tables=tuple(tables),
                                byes=tuple(p for r, p in state.byes if r == number),
                                completed=number <= state.completed))
    return TournamentView(
        tournament_id=created.tournament_id, name=created.name, game=created.game, options=created.options,
        format=created.format, max_players=created.max_players, status=state.status, version=version,
        players=tuple(Entrant(player_id=r.player_id, bot=r.bot) for r in state.registered),
        rounds_planned=state.rounds, rounds=tuple(rounds),
        standings=tuple(swiss_standings(state)) if state.started else (), ranking=state.ranking,
        organiser=created.organiser,
    )
