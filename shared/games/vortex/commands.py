"""What a player may send: one Struct per decision, each naming the seat that sends it."""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

Direction = Literal["clockwise", "counterclockwise"]
MonsterKind = Literal["skeletal-hand", "skeletal-warrior", "thing-from-beyond"]


class Roll(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.Roll"):
    """Movement phase: roll the die."""

    seat: int


class ChooseDirection(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.ChooseDirection"):
    """In the Temple, after rolling: which way to walk the whole roll."""

    seat: int
    direction: Direction


class ChooseSpiral(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.ChooseSpiral"):
    """After a transport or a knock-back: the stone of the purple (Courtyard) or orange (Temple) spiral."""

    seat: int
    stone: int


class TryVortex(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.TryVortex"):
    """On the black spiral: roll for control of the Vortex."""

    seat: int


class DeclineVortex(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.DeclineVortex"):
    seat: int


class RollRecall(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.RollRecall"):
    """Magic phase with all three monsters in limbo: roll to get them back."""

    seat: int


class PlaceMonster(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.PlaceMonster"):
    seat: int
    monster: MonsterKind
    headstone: str


class MoveMonster(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.MoveMonster"):
    seat: int
    headstone: str


class KeepMonster(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.KeepMonster"):
    """Magic phase: leave the monster where it is (ends the turn)."""

    seat: int


Command = (
    Roll | ChooseDirection | ChooseSpiral | TryVortex | DeclineVortex | RollRecall | PlaceMonster | MoveMonster
    | KeepMonster
)
COMMAND_TYPES: tuple[type, ...] = get_args(Command)
