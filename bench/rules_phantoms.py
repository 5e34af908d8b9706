"""Throughput of the Phantoms rules: complete bot seasons, then re-folding their events.

``python -m bench.rules_phantoms [--seasons N] [--seed S] [--repeats R]`` plays N seasons per edition (4 managers,
greedy and random bots mixed, default options: nine wins then a best-of-7 series), then folds every season's
events again R times. It prints seasons/s, events generated/s and events folded/s, and the hardware.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from typing import Any

from shared.games.draws import SeededDraws
from shared.games.phantoms import rules
from shared.games.phantoms.options import Options
from shared.games.rules import fold

SEATS = 4
SAFETY_COMMANDS = 50_000
"""A season that needs more commands than this is a bug (bots must make progress): the bench fails loudly."""
LINEUPS = [("greedy", "random", "greedy", "random"), ("random", "greedy", "random", "greedy"),
           ("greedy",) * 4, ("random",) * 4]


def season(options: Options, rng: random.Random, bots: tuple[str, ...]) -> list[Any]:
    draws = SeededDraws(rng)
    events = rules.new_game(options, SEATS, draws)
    state = fold(rules, events)
    for _ in range(SAFETY_COMMANDS):
        if rules.is_over(state):
            return events
        seat = min(rules.pending_seats(state))
        new = rules.decide(state, rules.bots[bots[seat]](state, seat, rng), draws)
        for event in new:
            state = rules.evolve(state, event)
        events += new
    raise RuntimeError(f"a season did not end within {SAFETY_COMMANDS} commands ({options}, bots {bots})")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(seasons: int, seed: int, repeats: int) -> dict[str, Any]:
    rng = random.Random(seed)
    result: dict[str, Any] = {
        "cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
        "seasons_per_edition": seasons, "seats": SEATS, "seed": seed,
    }
    for edition in ("poti", "powerplay"):
        options = Options(edition=edition)
        start = time.perf_counter()
        played = [season(options, rng, LINEUPS[i % len(LINEUPS)]) for i in range(seasons)]
        generate = time.perf_counter() - start
        events = sum(len(e) for e in played)
        fold_times = []
        for _ in range(repeats):
            start = time.perf_counter()
            for e in played:
                fold(rules, e)
            fold_times.append(time.perf_counter() - start)
        folding = statistics.median(fold_times)
        result[edition] = {
            "seasons": seasons,
            "events": events,
            "events_per_season": round(events / seasons, 1),
            "seconds_playing": round(generate, 2),
            "seasons_per_s": round(seasons / generate, 1),
            "events_generated_per_s": round(events / generate),
            "events_folded_per_s": round(events / folding),
            "fold_seconds_median": round(folding, 3),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seasons", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(run(args.seasons, args.seed, args.repeats), indent=2))


if __name__ == "__main__":
    main()
