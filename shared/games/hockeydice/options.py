"""Table options, recorded in the first event of every game."""

from __future__ import annotations

import msgspec

from shared.games.hockeydice.dice import GOALIE_DIE, MASK, PLAYER_DIE, SIDES, GoalieFace, Symbol
from shared.games.hockeydice.rule_ids import OPTIONS_INVALID
from shared.games.rules import RuleViolation


class HockeyOptions(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.HockeyOptions"):
    power_chip_reroll: bool = False
    player_die: tuple[Symbol, ...] = PLAYER_DIE
    goalie_die: tuple[GoalieFace, ...] = GOALIE_DIE
    periods: int = 3
    shots_per_period: int = 5
    overtime_shots: int = 5
    shootout_shots: int = 3


def validate(options: HockeyOptions) -> None:
    if len(options.player_die) != SIDES:
        raise RuleViolation(OPTIONS_INVALID, f"The player die must have {SIDES} faces.")
    if len(options.goalie_die) != SIDES:
        raise RuleViolation(OPTIONS_INVALID, f"The goaltender die must have {SIDES} faces.")
    if any(face != MASK and (isinstance(face, bool) or face < 0) for face in options.goalie_die):
        raise RuleViolation(OPTIONS_INVALID, "Goaltender die faces are numbers of 0 or more, or the mask.")
    if options.periods < 1 or options.shots_per_period < 1:
        raise RuleViolation(OPTIONS_INVALID, "A game needs at least one period of at least one shot.")
    if options.overtime_shots < 0 or options.shootout_shots < 0:
        raise RuleViolation(OPTIONS_INVALID, "Overtime and shoot-out shot counts cannot be negative.")
