"""The next round of a running tournament, and its end: Swiss pairings or the elimination bracket."""

from __future__ import annotations

from typing import assert_never

from shared.tournaments.bracket import first_round, next_round, series_seats, series_winner
from shared.tournaments.events import (
    Event,
    RoundCompleted,
    RoundStarted,
    Seating,
    SeriesGameStarted,
    TournamentFinished,
)
from shared.tournaments.formats import Elimination, Swiss, table_sizes
from shared.tournaments.scoring import Played, Standing, standings
from shared.tournaments.state import Game, State
from shared.tournaments.swiss import met_from, pair


def game_id(state: State, round_: int, table: int, number: int = 1) -> str:
    created = state.created
    return f"{created.game}-{created.tournament_id}-r{round_}-t{table}-g{number}"


def swiss_standings(state: State) -> list[Standing]:
    played = [Played(g.players, g.winners) for g in state.games if g.winners is not None]
    return standings(state.seeds, played, [player for _, player in state.byes])


def swiss_round(state: State, fmt: Swiss, round_: int) -> RoundStarted:
    order = [s.player_id for s in swiss_standings(state)]
    sizes, bye_count = table_sizes(len(order), fmt.table_size, fmt.min_table_size or fmt.table_size)
    had_bye = [player for _, player in state.byes]
    worst_first = list(reversed(order))
    byes = sorted(worst_first, key=lambda p: (had_bye.count(p), worst_first.index(p)))[:bye_count]
    seated = [p for p in order if p not in byes]
    tables = pair(seated, sizes, met_from([g.players for g in state.games]))
    seatings = []
    for number, table in enumerate(tables, start=1):
        turn = (round_ - 1) % len(table)
        seatings.append(Seating(number, game_id(state, round_, number), table[turn:] + table[:turn]))
    return RoundStarted(round=round_, tables=tuple(seatings), byes=tuple(byes))


def elimination_round(state: State, round_: int, pairs: list[tuple[str, ...]]) -> RoundStarted:
    seatings = []
    for number, players in enumerate((p for p in pairs if len(p) == 2), start=1):
        seatings.append(Seating(number, game_id(state, round_, number), players))
    return RoundStarted(round=round_, tables=tuple(seatings), byes=tuple(p[0] for p in pairs if len(p) == 1),
                        bracket=tuple(pairs))


def first(state: State) -> RoundStarted:
    fmt = state.created.format
    match fmt:
        case Swiss():
            return swiss_round(state, fmt, 1)
        case Elimination():
            return elimination_round(state, 1, first_round([s.player_id for s in state.seeds]))
        case _:
            assert_never(fmt)


def table_winner(state: State, fmt: Elimination, round_: int, table: int) -> str | None:
    games = [g for g in state.games if g.round == round_ and g.table == table]
    finished = [g.winners for g in games if g.winners is not None]
    return series_winner(games[0].players, finished, fmt.best_of, [s.player_id for s in state.seeds])


def pair_winner(state: State, fmt: Elimination, round_: int, players: tuple[str, ...]) -> str | None:
    if len(players) == 1:
        return players[0]
    table = next(g.table for g in state.games_of(round_) if set(g.players) == set(players))
    return table_winner(state, fmt, round_, table)


def after_result(state: State, game: Game) -> list[Event]:
    """What follows a recorded result: the series' next game, the round's end, the next round or the end."""
    fmt = state.created.format
    round_ = game.round
    match fmt:
        case Swiss():
            if any(g.winners is None for g in state.games_of(round_)):
                return []
            if round_ >= state.rounds:
                return [RoundCompleted(round=round_),
                        TournamentFinished(ranking=tuple(s.player_id for s in swiss_standings(state)))]
            return [RoundCompleted(round=round_), swiss_round(state, fmt, round_ + 1)]
        case Elimination():
            table_games = [g for g in state.games_of(round_) if g.table == game.table]
            if (table_winner(state, fmt, round_, game.table) is None
                    and all(g.winners is not None for g in table_games)):
                number = len(table_games) + 1
                seating = Seating(game.table, game_id(state, round_, game.table, number),
                                  series_seats(table_games[0].players, number))
                return [SeriesGameStarted(round=round_, seating=seating)]
            winners = [pair_winner(state, fmt, round_, p) for p in state.brackets[-1]]
            if any(w is None for w in winners):
                return []
            advancing = [w for w in winners if w is not None]
            if len(advancing) == 1:
                return [RoundCompleted(round=round_), TournamentFinished(ranking=elimination_ranking(state))]
            return [RoundCompleted(round=round_), elimination_round(state, round_ + 1, next_round(advancing))]
        case _:
            assert_never(fmt)


def elimination_ranking(state: State) -> tuple[str, ...]:
    """The champion, then by the round each player went out in (later is better), then by seed."""
    reached = {s.player_id: 0 for s in state.seeds}
    for g in state.games:
        for player in g.players:
            reached[player] = max(reached[player], g.round)
    champion = state.brackets[-1][0]
    fmt = state.created.format
    assert isinstance(fmt, Elimination)
    winner = pair_winner(state, fmt, len(state.brackets), champion)
    seed_index = {s.player_id: i for i, s in enumerate(state.seeds)}
    return tuple(sorted(reached, key=lambda p: (p != winner, -reached[p], seed_index[p])))
