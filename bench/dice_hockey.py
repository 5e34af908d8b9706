"""Hockey Championship bot games: goals per game per team, overtime and shoot-out shares, by bot kind.

Usage: python -m bench.dice_hockey [games] [seed] [--power-chip-reroll]
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter
from typing import Any

from shared.games.draws import SeededDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.events import GameEnded, ShotCounted
from shared.games.hockeydice.options import HockeyOptions
from shared.games.rules import fold

MATCHUPS = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("random", "greedy"))


def play(options: HockeyOptions, kinds: tuple[str, str], rng: random.Random) -> tuple[GameEnded, int, int]:
    """One bot game; returns its end, its shots on goal and its contest rolls."""
    draws = SeededDraws(rng)
    state = fold(rules, rules.new_game(options, 2, draws))
    ended: GameEnded | None = None
    shots = rolls = 0
    while not rules.is_over(state):
        seat = rng.choice(sorted(rules.pending_seats(state)))
        command = rules.bots[kinds[seat]](state, seat, rng)
        rolls += type(command).__name__ == "Roll"
        for event in rules.decide(state, command, draws):
            state = rules.evolve(state, event)
            if isinstance(event, ShotCounted):
                shots += 1
            if isinstance(event, GameEnded):
                ended = event
    assert ended is not None
    return ended, shots, rolls


def _summary(goals: list[int]) -> dict[str, Any]:
    ordered = sorted(goals)
    return {
        "mean": round(statistics.fmean(goals), 3),
        "median": statistics.median(goals),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
        "distribution": dict(sorted(Counter(goals).items())),
    }


def run(games: int, seed: int, power_chip_reroll: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    options = HockeyOptions(power_chip_reroll=power_chip_reroll)
    team_goals: list[int] = []
    by_kind: dict[str, list[int]] = {"random": [], "greedy": []}
    by_seat: list[list[int]] = [[], []]
    by_matchup: dict[str, list[list[int]]] = {f"{home} v {away}": [[], []] for home, away in MATCHUPS}
    stages: Counter[str] = Counter()
    wins_by_kind: Counter[str] = Counter()
    shots: list[int] = []
    rolls: list[int] = []
    for number in range(games):
        kinds = MATCHUPS[number % len(MATCHUPS)]
        ended, game_shots, game_rolls = play(options, kinds, rng)
        stages[ended.decided_in] += 1
        shots.append(game_shots)
        rolls.append(game_rolls)
        for seat in (0, 1):
            team_goals.append(ended.score[seat])
            by_kind[kinds[seat]].append(ended.score[seat])
            by_seat[seat].append(ended.score[seat])
            by_matchup[f"{kinds[0]} v {kinds[1]}"][seat].append(ended.score[seat])
        if kinds[0] != kinds[1]:
            wins_by_kind[kinds[ended.winner]] += 1
    mixed = sum(1 for number in range(games) if len(set(MATCHUPS[number % len(MATCHUPS)])) == 2)
    return {
        "games": games,
        "seed": seed,
        "power_chip_reroll": power_chip_reroll,
        "goals_per_team_per_game": _summary(team_goals),
        "goals_per_game_both_teams_mean": round(2 * statistics.fmean(team_goals), 3),
        "goals_by_seat": {"home": _summary(by_seat[0]), "away": _summary(by_seat[1])},
        "goals_by_bot_kind": {kind: _summary(goals) for kind, goals in by_kind.items() if goals},
        "goals_by_matchup_home_away_mean": {
            name: (round(statistics.fmean(home), 3), round(statistics.fmean(away), 3))
            for name, (home, away) in by_matchup.items()
            if home
        },
        "greedy_win_share_vs_random": round(wins_by_kind["greedy"] / mixed, 3) if mixed else None,
        "decided_in": {stage: round(stages[stage] / games, 4) for stage in ("regulation", "overtime", "shootout")},
        "overtime_share": round((stages["overtime"] + stages["shootout"]) / games, 4),
        "shootout_share": round(stages["shootout"] / games, 4),
        "shots_on_goal_per_game_mean": round(statistics.fmean(shots), 2),
        "contest_rolls_per_game_mean": round(statistics.fmean(rolls), 2),
    }


def main(argv: list[str]) -> None:
    flags = [arg for arg in argv if arg.startswith("--")]
    numbers = [int(arg) for arg in argv if not arg.startswith("--")]
    games = numbers[0] if numbers else 10_000
    seed = numbers[1] if len(numbers) > 1 else 2026
    result = run(games, seed, power_chip_reroll="--power-chip-reroll" in flags)
    width = max(len(key) for key in result)
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main(sys.argv[1:])
