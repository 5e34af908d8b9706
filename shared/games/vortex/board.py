"""The Vortex board as data: three rings of stones (the fixed parts of the layout are constants here)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import msgspec

RegionName = Literal["outer", "courtyard", "temple"]
StoneKind = Literal["plain", "coins2", "coins3", "shovel", "green", "purple", "orange", "black"]

REGIONS: tuple[RegionName, ...] = ("outer", "courtyard", "temple")
REGION_TITLES: dict[RegionName, str] = {"outer": "Outer Grounds", "courtyard": "Courtyard", "temple": "Temple"}
RING_SIZES: dict[RegionName, int] = {"outer": 24, "courtyard": 16, "temple": 12}
GREEN_STONES = (0, 6, 12, 18)
BLACK_STONE = 0
ORANGE_STONES = (4, 8)
PURPLE_COUNT = 4
SENTINELS_PER_RING = 2
HEADSTONES_PER_RING = 4
STONE_COINS: dict[str, int] = {"coins2": 2, "coins3": 3, "purple": 3}
SHOVEL_COINS = 3
REFERENCE_PATH = Path(__file__).parent / "boards" / "reference.json"


class BoardError(ValueError):
    """A board file that does not describe a Phantom's Vortex board."""


class Headstone(msgspec.Struct, frozen=True):
    id: str
    between: tuple[int, int]


class Region(msgspec.Struct, frozen=True):
    stones: tuple[StoneKind, ...]
    sentinels: tuple[int, ...] = ()
    headstones: tuple[Headstone, ...] = ()


class Board(msgspec.Struct, frozen=True):
    name: str
    outer: Region
    courtyard: Region
    temple: Region

    def region(self, name: RegionName) -> Region:
        region: Region = getattr(self, name)
        return region

    def spirals(self, kind: StoneKind) -> tuple[int, ...]:
        region = self.courtyard if kind == "purple" else self.temple if kind in ("orange", "black") else self.outer
        return tuple(i for i, stone in enumerate(region.stones) if stone == kind)

    def headstone(self, headstone_id: str) -> Headstone | None:
        for region in (self.outer, self.courtyard):
            for headstone in region.headstones:
                if headstone.id == headstone_id:
                    return headstone
        return None

    @property
    def headstone_ids(self) -> tuple[str, ...]:
        return tuple(h.id for h in self.outer.headstones + self.courtyard.headstones)
