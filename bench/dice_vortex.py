"""Phantom's Vortex race lengths from bot games: how many rounds until a phantom masters the Vortex.

``python -m bench.dice_vortex --games 10000 --seed 1`` plays that many 4-phantom games for each bot kind (all four
seats the same kind) and, for a smaller sample, 2-phantom games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Iterable
from typing import Any, NamedTuple

from shared.games.draws import SeededDraws
from shared.games.vortex import Options, rules
from shared.games.vortex.events import PhantomTransported, RaceEnded, VortexTried

SAFETY_ROUNDS = 1000
"""A race still running after this many rounds is counted as not ended."""


class Race(NamedTuple):
    rounds: int
    ended: bool
    """A phantom mastered the Vortex (rather than the safety limit ending the race)."""
    winner_courtyard: int | None
    """Round in which the winner first reached the Courtyard (None if the safety limit ended the race)."""
    winner_temple: int | None
    vortex_tries: int


def play(kind: str, seats: int, rng: random.Random) -> Race:
    bot = rules.bots[kind]
    state = None
    for event in rules.new_game(Options(max_rounds=SAFETY_ROUNDS), seats, SeededDraws(rng)):
        state = rules.evolve(state, event)
    assert state is not None
    reached: dict[tuple[int, str], int] = {}
    tries = 0
    while not rules.is_over(state):
        command = bot(state, state.turn, rng)
        events = rules.decide(state, command, SeededDraws(rng))
        for event in events:
            if isinstance(event, PhantomTransported):
                reached.setdefault((event.seat, event.region), state.round)
            tries += isinstance(event, VortexTried)
            state = rules.evolve(state, event)
    last = events[-1]
    ended = isinstance(last, RaceEnded) and last.reason == "vortex"
    winner = state.winners[0]
    return Race(
        state.round,
        ended,
        reached.get((winner, "courtyard")) if ended else None,
        reached.get((winner, "temple")) if ended else None,
        tries,
    )


def summary(races: list[Race]) -> dict[str, Any]:
    ordered = sorted(r.rounds for r in races)
    ended = [r for r in races if r.ended]
    return {
        "games": len(races),
        "rounds_median": statistics.median(ordered),
        "rounds_p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "rounds_max": ordered[-1],
        "rounds_mean": round(statistics.fmean(ordered), 1),
        "share_ended": round(len(ended) / len(races), 4),
        "winner_reached_courtyard_median_round": _median(r.winner_courtyard for r in ended),
        "winner_reached_temple_median_round": _median(r.winner_temple for r in ended),
        "vortex_tries_per_race_mean": round(statistics.fmean(r.vortex_tries for r in races), 2),
    }


def _median(values: Iterable[int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def run(games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    result: dict[str, Any] = {"game": "vortex", "games_per_kind": games, "seed": seed, "safety_rounds": SAFETY_ROUNDS}
    for seats in (4, 2):
        count = games if seats == 4 else max(1, games // 10)
        for kind in ("random", "greedy"):
            result[f"{kind}_{seats}p"] = summary([play(kind, seats, rng) for _ in range(count)])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(run(args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
