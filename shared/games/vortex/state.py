"""The position of a race, and the questions the rules ask of it."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.vortex.board import Board, RegionName
from shared.games.vortex.commands import MonsterKind
from shared.games.vortex.events import SpiralColour
from shared.games.vortex.options import Options

Phase = Literal["roll", "direction", "vortex", "spiral", "magic", "over"]
MONSTERS: tuple[MonsterKind, ...] = ("skeletal-hand", "skeletal-warrior", "thing-from-beyond")
MONSTER_COST: dict[MonsterKind, int] = {"skeletal-hand": 1, "skeletal-warrior": 2, "thing-from-beyond": 3}
MONSTER_NAMES: dict[MonsterKind, str] = {
    "skeletal-hand": "Skeletal Hand", "skeletal-warrior": "Skeletal Warrior", "thing-from-beyond": "Thing From Beyond"
}
START_COINS = 2
MAX_COINS = 9
SENTINEL_THRESHOLD = 6
REGION_DEPTH: dict[RegionName, int] = {"outer": 0, "courtyard": 1, "temple": 2}


class Phantom(msgspec.Struct, frozen=True, tag="vortex.Phantom"):
    seat: int
    region: RegionName
    stone: int
    coins: int = START_COINS
    hand: tuple[MonsterKind, ...] = MONSTERS
    """Monsters off the board and not in limbo, in MONSTERS order."""
    limbo: tuple[MonsterKind, ...] = ()
    monster: MonsterKind | None = None
    headstone: str | None = None
    """Where ``monster`` stands; both None when the player has no monster on the board."""


class State(msgspec.Struct, frozen=True):
    options: Options
    board: Board
    phantoms: tuple[Phantom, ...]
    turn: int = 0
    round: int = 1
    phase: Phase = "roll"
    roll: int | None = None
    """The movement roll waiting for a direction in the Temple."""
    spiral: SpiralColour | None = None
    """The colour of spiral the player must choose now."""
    winners: tuple[int, ...] = ()

    @property
    def current(self) -> Phantom:
        return self.phantoms[self.turn]

    def with_phantom(self, phantom: Phantom) -> State:
        phantoms = tuple(phantom if p.seat == phantom.seat else p for p in self.phantoms)
        return msgspec.structs.replace(self, phantoms=phantoms)

    def monster_on(self, headstone_id: str) -> Phantom | None:
        """The phantom whose monster stands on that headstone."""
        for phantom in self.phantoms:
            if phantom.headstone == headstone_id:
                return phantom
        return None

    def free_headstones(self) -> tuple[str, ...]:
        return tuple(h for h in self.board.headstone_ids if self.monster_on(h) is None)


def sorted_monsters(monsters: tuple[MonsterKind, ...] | list[MonsterKind]) -> tuple[MonsterKind, ...]:
    return tuple(m for m in MONSTERS if m in monsters)


def clamp_coins(coins: int) -> int:
    return max(0, min(MAX_COINS, coins))


def furthest_in(phantoms: tuple[Phantom, ...]) -> tuple[int, ...]:
    """Seats ranked first by region (Temple > Courtyard > Outer Grounds), then coins; ties share."""
    best = max((REGION_DEPTH[p.region], p.coins) for p in phantoms)
    return tuple(p.seat for p in phantoms if (REGION_DEPTH[p.region], p.coins) == best)
