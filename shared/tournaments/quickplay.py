"""Quick play: tables formed from the players waiting for a game, each with players of a similar rating. The band
of ratings a waiting player accepts widens the longer they wait, so nobody waits for ever."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    rating: float
    """Rating ordinal."""
    since: float
    """When they joined, in seconds on the caller's clock."""
    bot: str | None = None


class Banding(msgspec.Struct, frozen=True, kw_only=True):
    base: float = 5.0
    """Ordinal distance accepted at once."""
    widen_per_second: float = 1.0
    widest: float = 1_000.0


def band(waiting: Waiting, now: float, banding: Banding) -> float:
    return min(banding.widest, banding.base + banding.widen_per_second * max(0.0, now - waiting.since))


def form_tables(queue: Sequence[Waiting], size: int, now: float, banding: Banding) -> list[tuple[Waiting, ...]]:
    """Tables of ``size``. The longest waiting player goes first, with the closest ratings both of them accept
    (each within the other's band); whoever finds no table waits on."""
    if size < 1:
        raise ValueError("a table needs at least one seat")
    seated: set[str] = set()
    tables = []
    for anchor in sorted(queue, key=lambda w: (w.since, w.player_id)):
        if anchor.player_id in seated:
            continue
        reach = band(anchor, now, banding)
        fits = [w for w in queue if w.player_id not in seated and w.player_id != anchor.player_id
                and abs(w.rating - anchor.rating) <= min(reach, band(w, now, banding))]
        if len(fits) < size - 1:
            continue
        fits.sort(key=lambda w: (abs(w.rating - anchor.rating), w.since, w.player_id))
        table = (anchor, *fits[:size - 1])
        seated.update(w.player_id for w in table)
        tables.append(table)
    return tables
