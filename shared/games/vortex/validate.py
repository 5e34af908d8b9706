"""The board validator: what RULES.md fixes about every Vortex board."""

from __future__ import annotations

from shared.games.vortex.board import (
    BLACK_STONE,
    GREEN_STONES,
    HEADSTONES_PER_RING,
    ORANGE_STONES,
    PURPLE_COUNT,
    REGION_TITLES,
    REGIONS,
    RING_SIZES,
    SENTINELS_PER_RING,
    Board,
    BoardError,
    Region,
    RegionName,
)


def validate_board(board: Board) -> None:
    """Raise BoardError naming the first way ``board`` differs from the layout RULES.md fixes."""
    for name in REGIONS:
        size = len(board.region(name).stones)
        if size != RING_SIZES[name]:
            raise BoardError(f"the {REGION_TITLES[name]} must be a ring of {RING_SIZES[name]} stones, not {size}")
    _check_outer(board.outer)
    _check_courtyard(board.courtyard)
    _check_temple(board.temple)
    ids = board.headstone_ids
    if len(set(ids)) != len(ids):
        raise BoardError(f"headstone ids must be unique across the board: {', '.join(ids)}")


def _check_outer(region: Region) -> None:
    greens = tuple(i for i, s in enumerate(region.stones) if s == "green")
    if greens != GREEN_STONES:
        raise BoardError(f"the Outer Grounds need green spirals at stones {GREEN_STONES} exactly, found {greens}")
    _check_kinds(region, "outer", {"plain", "coins2", "coins3", "shovel", "green"})
    _check_guards(region, "outer")


def _check_courtyard(region: Region) -> None:
    purples = [i for i, s in enumerate(region.stones) if s == "purple"]
    if len(purples) != PURPLE_COUNT:
        raise BoardError(f"the Courtyard needs {PURPLE_COUNT} purple spirals, found {len(purples)}")
    _check_kinds(region, "courtyard", {"plain", "coins2", "coins3", "shovel", "purple"})
    _check_guards(region, "courtyard")


def _check_temple(region: Region) -> None:
    for i, stone in enumerate(region.stones):
        expected = "black" if i == BLACK_STONE else "orange" if i in ORANGE_STONES else "plain"
        if stone != expected:
            if stone in ("coins2", "coins3", "shovel"):
                raise BoardError(f"the Temple has no coins: stone {i} is {stone}")
            raise BoardError(f"Temple stone {i} must be {expected}, not {stone} (black at 0, orange at 4 and 8)")
    if region.sentinels:
        raise BoardError("the Temple has no Sentinels")
    if region.headstones:
        raise BoardError("monsters cannot enter the Temple: it has no headstones")


def _check_kinds(region: Region, name: RegionName, allowed: set[str]) -> None:
    for i, stone in enumerate(region.stones):
        if stone not in allowed:
            raise BoardError(f"{REGION_TITLES[name]} stone {i} is {stone}; allowed there: {', '.join(sorted(allowed))}")


def _check_guards(region: Region, name: RegionName) -> None:
    title, size = REGION_TITLES[name], RING_SIZES[name]
    sentinels = region.sentinels
    if len(sentinels) != SENTINELS_PER_RING or len(set(sentinels)) != SENTINELS_PER_RING:
        raise BoardError(f"the {title} needs {SENTINELS_PER_RING} Sentinels beside different stones, got {sentinels}")
    for stone in sentinels:
        if not 0 <= stone < size:
            raise BoardError(f"a Sentinel of the {title} stands beside stone {stone}, which is not on the ring")
    if len(region.headstones) != HEADSTONES_PER_RING:
        raise BoardError(f"the {title} needs {HEADSTONES_PER_RING} headstones, got {len(region.headstones)}")
    places = set()
    for headstone in region.headstones:
        a, b = headstone.between
        if not (0 <= a < size and b == (a + 1) % size):
            raise BoardError(f"headstone {headstone.id} must stand between two neighbour stones, not {a} and {b}")
        if a in places:
            raise BoardError(f"two headstones of the {title} stand between stones {a} and {b}")
        places.add(a)
