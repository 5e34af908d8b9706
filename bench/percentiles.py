"""Latency figures: nearest-rank percentiles over a list of seconds, reported in milliseconds."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below it."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(seconds, 0.50) * 1000, 2), "p99_ms": round(percentile(seconds, 0.99) * 1000, 2),
            "max_ms": round(max(seconds, default=math.nan) * 1000, 2), "count": len(seconds)}
