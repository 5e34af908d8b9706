"""No bias at the 0.001 level: chi-squared over d6 faces and over the 720 orders of a 6-item shuffle."""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations
from statistics import NormalDist

from shared.fairness import FairDraws, draw
from shared.games.draws import DiceRequest, ShuffleRequest

SEED = bytes.fromhex("c0ffee" * 10 + "00c0")
GAME = "game-chi-squared"
SEEDS = ("alpha", "beta", "gamma", "delta")
CRITICAL_DF5_P001 = 20.515


def chi_squared(counts: Counter[object], cells: list[object], total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def wilson_hilferty(df: int, p: float) -> float:
    z = NormalDist().inv_cdf(1 - p)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def chi_squared_cdf(x: float, df: int) -> float:
    """The regularized lower incomplete gamma P(df/2, x/2), summed as a series."""
    s, half = df / 2, x / 2
    term = total = 1 / s
    n = 1
    while term > total * 1e-17:
        term *= half / (s + n)
        total += term
        n += 1
    return math.exp(-half + s * math.log(half) - math.lgamma(s)) * total


def test_critical_values() -> None:
    assert abs(chi_squared_cdf(CRITICAL_DF5_P001, 5) - 0.999) < 1e-6
    # Wilson-Hilferty gives 841.93 for df=719 at p=0.001; the exact quantile is 841.91 (not 845).
    assert abs(wilson_hilferty(719, 0.001) - 841.93) < 0.01
    assert abs(chi_squared_cdf(841.91, 719) - 0.999) < 1e-5


def test_d6_rolls_are_uniform() -> None:
    counts: Counter[object] = Counter()
    for nonce in range(600):
        counts.update(draw(SEED, GAME, SEEDS, nonce, DiceRequest(6, 1000)))
    statistic = chi_squared(counts, list(range(1, 7)), 600_000)
    assert statistic < CRITICAL_DF5_P001, (statistic, counts)


def test_shuffles_of_six_are_uniform_over_the_720_orders() -> None:
    draws = FairDraws(SEED, GAME, SEEDS, first_nonce=10_000)
    counts: Counter[object] = Counter(draws.take(ShuffleRequest(6)) for _ in range(100_000))
    cells: list[object] = list(permutations(range(6)))
    assert set(counts) <= set(cells)
    statistic = chi_squared(counts, cells, 100_000)
    assert statistic < wilson_hilferty(719, 0.001), statistic
