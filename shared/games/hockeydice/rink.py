"""The rink: centre ice, then for each attacking team the sections it crosses towards the opponent's goal.

The puck position is an integer: 0 is centre ice, +k is the k-th section of the away half (where home attacks),
-k the k-th section of the home half (where away attacks).
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Section(msgspec.Struct, frozen=True, tag="hockeydice.Section"):
    name: str
    shot_modifier: int | None
    """None: behind the blue line, no Shot on Goal from here."""


RINK: tuple[Section, ...] = (
    Section("neutral", None),
    Section("point", -1),
    Section("circle", 0),
    Section("slot", 1),
)


class Role(StrEnum):
    OFFENSE = "offense"
    DEFENSE = "defense"


def attack_sign(seat: int) -> int:
    """The direction in which ``seat`` advances the puck."""
    return 1 if seat == 0 else -1


def depth(puck: int, seat: int) -> int:
    """How far the puck is into the opponent's half of ``seat`` (negative: into its own half)."""
    return puck * attack_sign(seat)


def role(puck: int, seat: int) -> Role:
    """Offense when the puck is on the opponent's side or at centre ice, defense when on its own side."""
    return Role.DEFENSE if depth(puck, seat) < 0 else Role.OFFENSE


def offense_seat(puck: int) -> int | None:
    """The one team on offense, or None at centre ice where both are."""
    if puck == 0:
        return None
    return 0 if puck > 0 else 1


def section_at(rink: tuple[Section, ...], puck: int) -> Section | None:
    """The section holding the puck, or None at centre ice."""
    return None if puck == 0 else rink[abs(puck) - 1]


def position(seat: int, section_depth: int) -> int:
    """The puck position ``section_depth`` sections into the half that ``seat`` attacks."""
    return section_depth * attack_sign(seat)
