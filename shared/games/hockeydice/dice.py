"""The two dice of the game: the player die (symbols) and the red goaltender die (numbers and a mask)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from typing import Literal


class Symbol(StrEnum):
    STICK = "stick"
    PUCK = "puck"
    CHECK = "check"
    PENALTY = "penalty"


MASK: Literal["mask"] = "mask"
GoalieFace = int | Literal["mask"]
Faces = tuple[Symbol, ...]

PLAYER_DIE: Faces = (Symbol.STICK, Symbol.STICK, Symbol.PUCK, Symbol.PUCK, Symbol.CHECK, Symbol.PENALTY)
GOALIE_DIE: tuple[GoalieFace, ...] = (1, 1, 2, 2, 3, MASK)
TEAM_DICE = 6
SIDES = 6


def player_faces(layout: Sequence[Symbol], numbers: Sequence[int]) -> Faces:
    return tuple(layout[n - 1] for n in numbers)


def goalie_face(layout: Sequence[GoalieFace], number: int) -> GoalieFace:
    return layout[number - 1]


def top_count(faces: Sequence[Symbol]) -> int:
    """How many dice show the symbol that appears the most: the strength of a roll."""
    return _top_count(tuple(faces))


def top_symbols(faces: Sequence[Symbol]) -> tuple[Symbol, ...]:
    """The symbols that appear the most, in die-chart order (several when the team's own roll ties)."""
    return _top_symbols(tuple(faces))


def sticks(faces: Sequence[Symbol]) -> int:
    return _sticks(tuple(faces))


def six_sticks(faces: Sequence[Symbol]) -> bool:
    return _sticks(tuple(faces)) >= TEAM_DICE


# A roll is at most six dice of four symbols: each answer is worked out once per distinct roll and kept.
@cache
def _top_count(faces: Faces) -> int:
    return max(Counter(faces).values(), default=0)


@cache
def _top_symbols(faces: Faces) -> tuple[Symbol, ...]:
    counts = Counter(faces)
    best = max(counts.values(), default=0)
    return tuple(symbol for symbol in Symbol if best and counts[symbol] == best)


@cache
def _sticks(faces: Faces) -> int:
    return sum(1 for face in faces if face is Symbol.STICK)
