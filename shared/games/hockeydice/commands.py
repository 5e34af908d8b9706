"""What a team may send. Every command names the seat sending it: 0 home, 1 away."""

from __future__ import annotations

from typing import get_args

import msgspec

from shared.games.hockeydice.plays import Play


class Roll(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.Roll"):
    """Start a roll contest: both teams roll all their dice at once (either team may throw)."""

    seat: int


class UsePowerChip(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.UsePowerChip"):
    seat: int


class KeepPowerChip(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.KeepPowerChip"):
    """Keep the chip: on a tie the opponent wins; otherwise let the roll stand."""

    seat: int


class RerollWithPowerChip(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.RerollWithPowerChip"):
    """Advanced rule: hand over the chip to reroll these dice (indices into the team's roll; 0 is the goalie die)."""

    seat: int
    dice: tuple[int, ...]


class ChoosePlay(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.ChoosePlay"):
    seat: int
    play: Play


class Shoot(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.Shoot"):
    """A shoot-out shot."""

    seat: int


Command = Roll | UsePowerChip | KeepPowerChip | RerollWithPowerChip | ChoosePlay | Shoot
COMMAND_TYPES: tuple[type, ...] = get_args(Command)
