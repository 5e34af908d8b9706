"""Statistics from bot games of the two dice games (not a test): Vortex rounds to finish, Hockey goals per team.

    python -m bench.rules_dice [--games 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bench import dice_hockey, dice_vortex
from bench.hardware import describe


def show(title: str, result: dict[str, Any], seconds: float, games: int) -> None:
    print(f"\n{title}: {games} games in {seconds:.1f}s ({games / seconds:,.0f} games/s)")
    width = max(len(str(key)) for key in result)
    for key, value in result.items():
        print(f"  {key:<{width}}  {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"dice games statistics — {describe()}")
    start = time.perf_counter()
    vortex = dice_vortex.run(args.games, args.seed)
    show("Phantom's Vortex (rounds to finish)", vortex, time.perf_counter() - start, args.games)
    start = time.perf_counter()
    hockey = dice_hockey.run(args.games, args.seed)
    show("Hockey Championship (goals per team per game)", hockey, time.perf_counter() - start, args.games)


if __name__ == "__main__":
    main()
