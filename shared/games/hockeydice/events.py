"""What happened. Rolled values are in the events, so a fold never needs draws."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, get_args

import msgspec

from shared.games.hockeydice.dice import Faces, GoalieFace
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.rink import Section


class GameStarted(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.GameStarted"):
    options: HockeyOptions
    seats: int
    rink: tuple[Section, ...]
    team_dice: int


class PowerChipTossed(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PowerChipTossed"):
    holder: int


class ContestRolled(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.ContestRolled"):
    seat: int
    """The seat that threw; both teams' dice are rolled."""
    home: Faces
    away: Faces


class PowerChipUsed(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PowerChipUsed"):
    seat: int


class PowerChipKept(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PowerChipKept"):
    seat: int


class PowerChipRerolled(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PowerChipRerolled"):
    seat: int
    dice: tuple[int, ...]
    faces: Faces = ()
    goalie: GoalieFace | None = None
    """Set when the defense rerolled its goaltender die on a shot."""


class RollWon(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.RollWon"):
    seat: int


class PlayChosen(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PlayChosen"):
    seat: int
    play: Play


class PuckMoved(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PuckMoved"):
    seat: int
    to: int


class PenaltyCalled(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PenaltyCalled"):
    seat: int
    against: int


class FreeRerolled(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.FreeRerolled"):
    seat: int
    dice: tuple[int, ...]
    faces: Faces


class ShotRolled(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.ShotRolled"):
    shooter: int
    faces: Faces
    goalie: GoalieFace
    modifier: int


class ShotReason(StrEnum):
    SIX_STICKS = "six-sticks"
    BEAT_GOALIE = "beat-goalie"
    BLOCKED = "blocked"
    MASK = "mask"
    POWER_CHIP = "power-chip"
    REROLL_TIE = "reroll-tie"


class ShotCounted(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.ShotCounted"):
    shooter: int
    goal: bool
    reason: ShotReason


class PeriodEnded(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.PeriodEnded"):
    period: int
    next: Literal["period", "overtime", "shootout", "final"]


class GameEnded(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.GameEnded"):
    winner: int
    decided_in: Literal["regulation", "overtime", "shootout"]
    score: tuple[int, int]
    shootout_goals: tuple[int, int]


Event = (
    GameStarted
    | PowerChipTossed
    | ContestRolled
    | PowerChipUsed
    | PowerChipKept
    | PowerChipRerolled
    | RollWon
    | PlayChosen
    | PuckMoved
    | PenaltyCalled
    | FreeRerolled
    | ShotRolled
    | ShotCounted
    | PeriodEnded
    | GameEnded
)
EVENT_TYPES: tuple[type, ...] = get_args(Event)
