"""Randomness enters the rules only as recorded draws.

A game's ``decide`` asks a ``Draws`` for what it needs (dice, an integer in a range, a shuffle) in a fixed order.
``RecordedDraws`` hands out results recorded earlier, then asks ``more`` (the engine's draws at hand, answered from
memory), and raises ``DrawsExhausted`` naming the next request when neither has it: the engine service then fetches
that draw from the RNG service and calls ``decide`` again with one more recorded draw, until ``decide`` completes.
Audit replays ``decide`` with the draws it recorded. ``SeededDraws`` makes draws from an injected ``random.Random``
for bots, tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import msgspec

T = TypeVar("T")


class DiceRequest(msgspec.Struct, frozen=True, tag="dice"):
    faces: int
    count: int


class RangeRequest(msgspec.Struct, frozen=True, tag="range"):
    """An integer in ``low..high`` inclusive."""

    low: int
    high: int


class ShuffleRequest(msgspec.Struct, frozen=True, tag="shuffle"):
    """A permutation of ``0..n-1``; ``values[i]`` is the original index of the item now at position ``i``."""

    n: int


DrawRequest = DiceRequest | RangeRequest | ShuffleRequest


class Draw(msgspec.Struct, frozen=True):
    request: DrawRequest
    values: tuple[int, ...]


class DrawsExhausted(Exception):
    def __init__(self, request: DrawRequest) -> None:
        super().__init__(f"draw needed: {request}")
        self.request = request


class DrawMismatch(Exception):
    """The recorded draw does not answer the request the rules make at that point."""

    def __init__(self, index: int, expected: DrawRequest, recorded: DrawRequest) -> None:
        super().__init__(f"draw {index}: rules ask for {expected}, recorded {recorded}")
        self.index = index
        self.expected = expected
        self.recorded = recorded


class Draws(Protocol):
    used: list[Draw]

    def take(self, request: DrawRequest) -> tuple[int, ...]: ...


def roll(draws: Draws, faces: int, count: int) -> tuple[int, ...]:
    """``count`` dice of ``faces`` faces, each 1..faces."""
    return draws.take(DiceRequest(faces, count))


def integer(draws: Draws, low: int, high: int) -> int:
    return draws.take(RangeRequest(low, high))[0]


def permutation(draws: Draws, n: int) -> tuple[int, ...]:
    return draws.take(ShuffleRequest(n))


def shuffled(draws: Draws, items: Sequence[T]) -> tuple[T, ...]:
    return tuple(items[i] for i in permutation(draws, len(items)))


class RecordedDraws:
    def __init__(self, recorded: Sequence[Draw] = (),
                 more: Callable[[DrawRequest], tuple[int, ...] | None] | None = None) -> None:
        self._recorded = list(recorded)
        self._more = more
        self.used: list[Draw] = []

    def take(self, request: DrawRequest) -> tuple[int, ...]:
        index = len(self.used)
        if index >= len(self._recorded):
            values = None if self._more is None else self._more(request)
            if values is None:
                raise DrawsExhausted(request)
            self._recorded.append(Draw(request, values))
        draw = self._recorded[index]
        if draw.request != request:
            raise DrawMismatch(index, request, draw.request)
        self.used.append(draw)
        return draw.values


def answer(request: DrawRequest, rng: random.Random) -> tuple[int, ...]:
    match request:
        case DiceRequest(faces, count):
            return tuple(rng.randint(1, faces) for _ in range(count))
        case RangeRequest(low, high):
            return (rng.randint(low, high),)
        case ShuffleRequest(n):
            order = list(range(n))
            rng.shuffle(order)
            return tuple(order)


class SeededDraws:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.used: list[Draw] = []

    def take(self, request: DrawRequest) -> tuple[int, ...]:
        values = answer(request, self._rng)
        self.used.append(Draw(request, values))
        return values
