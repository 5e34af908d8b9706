"""A matchmaking tournament's leaderboard from its own events, with matchmaking's own functions: the Swiss
standings (``shared.tournaments.rounds.swiss_standings``: a game won, shared by winners who tie; a bye; then
Median-Buchholz, the rating at the start and the seed), the ranking of ``TournamentFinished`` once there is one,
and while a knockout runs, the players still in first, then the rest by the round they went out in."""

from __future__ import annotations

from collections import Counter
from typing import assert_never

import msgspec

from services.standings.leaderboard import Placing
from shared.tournaments.formats import Elimination, Format, Swiss
from shared.tournaments.rounds import pair_winner, swiss_standings
from shared.tournaments.state import State


def format_name(fmt: Format) -> str:
    match fmt:
        case Swiss():
            return "swiss"
        case Elimination():
            return "elimination"
        case _:
            assert_never(fmt)


def knockout_order(state: State, fmt: Elimination) -> list[str]:
    """Players still in (by seed), then the others by the round they lost in (later is better), then by seed;
    once the final is decided this is ``elimination_ranking``'s order."""
    out: dict[str, int] = {}
    for number, pairs in enumerate(state.brackets, start=1):
        for pair in pairs:
            winner = pair_winner(state, fmt, number, pair) if len(pair) == 2 else None
            if winner is not None:
                out.update((p, number) for p in pair if p != winner)
    seed = {s.player_id: i for i, s in enumerate(state.seeds)}
    return sorted(seed, key=lambda p: (p in out, -out.get(p, 0), seed[p]))


UNRANKED = 0
"""The rank a running Swiss tournament's placings are stored with (``stored``)."""
READ_ORDER = "rank, points DESC, median_buchholz DESC, rating DESC, seed"
"""Placings in their stored rank, and those stored ``UNRANKED`` in the Swiss standings' order."""


def stored(state: State, rows: list[Placing]) -> list[Placing]:
    """The placings as the table holds them. A running Swiss tournament's order moves with every result (a won
    game lifts its winner over hundreds of players): its placings are stored ``UNRANKED`` and ranked when read, in
    the standings' own order (points, Median-Buchholz, rating at the start, seed: ``READ_ORDER``), so that a result
    rewrites the few placings whose figures it changed, not the thousands it moved (in a 10,000-player round,
    5,000–8,300 rows a fold batch: a quarter of PostgreSQL's time)."""
    if isinstance(state.created.format, Swiss) and state.ranking is None:
        return [msgspec.structs.replace(p, rank=UNRANKED) for p in rows]
    return rows


def ranked(rows: list[Placing]) -> list[Placing]:
    """Placings read in ``READ_ORDER``, each with its rank."""
    return [p if p.rank != UNRANKED else msgspec.structs.replace(p, rank=n) for n, p in enumerate(rows, start=1)]


def placings(state: State) -> list[Placing]:
    """Empty until the tournament has started (the tournament's own view has no standings before either)."""
    if not state.started:
        return []
    table = {s.player_id: s for s in swiss_standings(state)}
    fmt = state.created.format
    if state.ranking is not None:
        order = list(state.ranking)
    else:
        match fmt:
            case Swiss():
                order = list(table)
            case Elimination():
                order = knockout_order(state, fmt)
            case _:
                assert_never(fmt)
    wins = Counter(p for g in state.games for p in g.winners or ())
    byes = Counter(p for _, p in state.byes)
    seed = {s.player_id: i for i, s in enumerate(state.seeds, start=1)}
    return [Placing(rank=rank, player_id=p, points=table[p].points, median_buchholz=table[p].median_buchholz,
                    rating=table[p].rating, games=table[p].games, wins=wins[p], byes=byes[p], seed=seed[p])
            for rank, p in enumerate(order, start=1)]
