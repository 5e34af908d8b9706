"""The end of the regular season: tie-breakers, championship series, the all-teams playoff."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from shared.games.phantoms import events as ev
from shared.games.phantoms.options import series_wins
from shared.games.phantoms.state import Season, Stage

KIND = {"second": "tiebreak", "final": "final", "playoff": "playoff"}


def by_wins(s: Season, teams: list[int] | tuple[int, ...]) -> list[int]:
    return sorted(teams, key=lambda t: (-s.managers[t].wins, -s.managers[t].goals_for, t))


def by_goals(s: Season, teams: list[int] | tuple[int, ...]) -> list[int]:
    return sorted(teams, key=lambda t: (-s.managers[t].goals_for, -s.managers[t].wins, t))


def fold_pairs(ranked: list[int]) -> tuple[tuple[int, int], ...]:
    """Highest against lowest, second against second lowest, and so on."""
    return tuple((ranked[i], ranked[-1 - i]) for i in range(len(ranked) // 2))


def eliminate(s: Season, seats: list[int]) -> list[ev.Event]:
    if not seats:
        return []
    cards = tuple(c for seat in sorted(seats) for c in s.managers[seat].cards)
    return [ev.ManagersEliminated(seats=tuple(sorted(seats)), cards=cards)]


def season_end(s: Season) -> list[ev.Event]:
    leader = max(range(s.seats), key=lambda t: (s.managers[t].wins, -t))
    events: list[ev.Event] = [ev.SeasonEnded(
        leader=leader, wins=tuple(m.wins for m in s.managers), goals=tuple(m.goals_for for m in s.managers))]
    method = s.options.season_end
    if method == "nine_wins_no_series":
        return events + [ev.ChampionDecided(seat=leader)]
    everyone = [t for t in range(s.seats) if not s.managers[t].eliminated]
    if method == "all_teams_playoff":
        return events + [playoff_round(s, everyone)]
    others = [t for t in everyone if t != leader]
    best = max(s.managers[t].wins for t in others)
    tied = [t for t in others if s.managers[t].wins == best]
    return events + eliminate(s, [t for t in others if t not in tied]) + [second_stage(s, leader, tied)]


def final(s: Season, leader: int, second: int) -> ev.StageStarted:
    return ev.StageStarted(purpose="final", mode="series", teams=(leader, second), pairs=((leader, second),),
                           byes=(), wins_needed=series_wins(s.options))


def second_stage(s: Season, leader: int, tied: list[int]) -> ev.StageStarted:
    """Who meets the leader: a tie for second is a one-game tie-breaker; between more, a round-robin (poti) or a
    single elimination with byes by regular-season goals (powerplay)."""
    if len(tied) == 1:
        return final(s, leader, tied[0])
    ranked = by_goals(s, tied)
    if len(tied) == 2:
        return ev.StageStarted(purpose="second", mode="one_game", teams=tuple(ranked), pairs=((ranked[0], ranked[1]),),
                               byes=(), wins_needed=1)
    if s.edition == "poti":
        ordered = sorted(tied)
        return ev.StageStarted(purpose="second", mode="round_robin", teams=tuple(ordered),
                               pairs=tuple(combinations(ordered, 2)), byes=(), wins_needed=1)
    return knockout_round(s, ranked, first=True)


def knockout_round(s: Season, teams: list[int], first: bool = False) -> ev.StageStarted:
    """Single elimination by regular-season goals (the seed): the top scorer has a bye in the first round, and in
    later ones while an odd number is left; the second most plays the least, and so forth. The one left in the
    middle of a first round (an even number tied) has a bye too."""
    ranked = by_goals(s, teams)
    byes = ranked[:1] if first or len(ranked) % 2 else []
    rest = ranked[len(byes):]
    if len(rest) % 2:
        byes.append(rest.pop(len(rest) // 2))
    return ev.StageStarted(purpose="second", mode="knockout", teams=tuple(ranked), pairs=fold_pairs(rest),
                           byes=tuple(byes), wins_needed=1)


def playoff_round(s: Season, teams: list[int]) -> ev.StageStarted:
    """All-teams playoff: most wins against least; an odd number left first sends its two last to a one-game
    playoff whose loser is out."""
    ranked = by_wins(s, teams)
    if len(ranked) % 2:
        return ev.StageStarted(purpose="playoff", mode="qualifier", teams=tuple(ranked),
                               pairs=((ranked[-2], ranked[-1]),), byes=tuple(ranked[:-2]), wins_needed=1)
    return ev.StageStarted(purpose="playoff", mode="series", teams=tuple(ranked), pairs=fold_pairs(ranked),
                           byes=(), wins_needed=series_wins(s.options))


def pair_games(stage: Stage, pair: tuple[int, int]) -> list[int | None]:
    return [g.winner for g in stage.games if {g.home, g.away} == set(pair)]


def pair_winner(stage: Stage, pair: tuple[int, int]) -> int | None:
    wins = Counter(pair_games(stage, pair))
    for team in pair:
        if wins[team] >= stage.wins_needed:
            return team
    return None


def next_game(stage: Stage) -> tuple[int, int] | None:
    """(home, away) of the next game to play in this stage; series alternate home."""
    for pair in stage.pairs:
        if pair_winner(stage, pair) is None:
            played = len(pair_games(stage, pair))
            return pair if played % 2 == 0 else (pair[1], pair[0])
    return None


def advance(s: Season) -> list[ev.Event]:
    """The stage is complete: start the next one, or crown the champion."""
    stage = s.stage
    assert stage is not None and s.leader is not None
    winners = [pair_winner(stage, p) for p in stage.pairs]
    if stage.purpose == "final":
        assert winners[0] is not None
        return [ev.ChampionDecided(seat=winners[0])]
    if stage.mode == "round_robin":
        wins = Counter(g.winner for g in stage.games)
        top = max(wins[t] for t in stage.teams)
        survivors = [t for t in stage.teams if wins[t] == top]
    else:
        survivors = [*stage.byes, *(w for w in winners if w is not None)]
    events = eliminate(s, [t for t in stage.teams if t not in survivors])
    if stage.purpose == "playoff":
        if len(survivors) == 1:
            return events + [ev.ChampionDecided(seat=survivors[0])]
        return events + [playoff_round(s, survivors)]
    if len(survivors) == 1:
        return events + [final(s, s.leader, survivors[0])]
    if stage.mode == "round_robin":
        return events + [second_stage(s, s.leader, survivors)]
    return events + [knockout_round(s, survivors)]
