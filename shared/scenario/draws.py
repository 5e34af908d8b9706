"""Draws whose source is said: given ones (a scenario's dice to come, a game's recorded draws) while they answer the
request the rules make, then fresh ones from a local random source, each labelled so nobody takes it for real."""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from shared.games.draws import DiceRequest, Draw, DrawRequest, DrawsExhausted, RangeRequest, ShuffleRequest, answer


class SourcedDraw(msgspec.Struct, frozen=True, kw_only=True):
    draw: Draw
    source: str
    """``recorded #n`` (the game's own draw, nonce n), ``given`` (the scenario's) or ``FRESH`` (made up here)."""

    def __str__(self) -> str:
        return f"{_request(self.draw.request)} -> {list(self.draw.values)}  [{self.source}]"


def _request(request: DrawRequest) -> str:
    match request:
        case DiceRequest(faces, count):
            return f"{count}d{faces}"
        case RangeRequest(low, high):
            return f"integer {low}..{high}"
        case ShuffleRequest(n):
            return f"shuffle of {n}"


class SourcedDraws:
    """Takes ``given`` draws in order while each answers the request of the same kind; after the first that does
    not (or when they run out) every draw is fresh from ``rng``, or ``DrawsExhausted`` when ``rng`` is None."""

    def __init__(self, given: Sequence[tuple[Draw, str]], rng: random.Random | None) -> None:
        self._given = list(given)
        self._rng = rng
        self._diverged = False
        self.used: list[Draw] = []
        self.sourced: list[SourcedDraw] = []

    def take(self, request: DrawRequest) -> tuple[int, ...]:
        index = len(self.used)
        if not self._diverged and index < len(self._given) and self._given[index][0].request == request:
            draw, source = self._given[index]
        else:
            self._diverged = True
            if self._rng is None:
                raise DrawsExhausted(request)
            draw, source = Draw(request, answer(request, self._rng)), "FRESH"
        self.used.append(draw)
        self.sourced.append(SourcedDraw(draw=draw, source=source))
        return draw.values

    @property
    def fresh(self) -> int:
        return sum(d.source == "FRESH" for d in self.sourced)


class DiceToCome:
    """A scenario's ``[draws]``: ``dice`` values (each die of a roll takes the next), ``integers`` for ranges and
    ``shuffles`` (permutations) for shuffles, each list in the order the rules ask. What runs out is fresh from
    ``rng`` (labelled FRESH) or, without one, ``DrawsExhausted`` naming what the rules asked for."""

    def __init__(self, dice: Sequence[int] = (), integers: Sequence[int] = (),
                 shuffles: Sequence[Sequence[int]] = (), rng: random.Random | None = None) -> None:
        self.dice = list(dice)
        self.integers = list(integers)
        self.shuffles = [tuple(s) for s in shuffles]
        self._rng = rng
        self.used: list[Draw] = []
        self.sourced: list[SourcedDraw] = []

    def take(self, request: DrawRequest) -> tuple[int, ...]:
        values = self._given(request)
        source = "given"
        if values is None:
            if self._rng is None:
                raise DrawsExhausted(request)
            values, source = answer(request, self._rng), "FRESH"
        draw = Draw(request, values)
        self.used.append(draw)
        self.sourced.append(SourcedDraw(draw=draw, source=source))
        return values

    def _given(self, request: DrawRequest) -> tuple[int, ...] | None:
        match request:
            case DiceRequest(faces, count):
                if len(self.dice) < count:
                    return None
                values, self.dice = tuple(self.dice[:count]), self.dice[count:]
                if any(not 1 <= v <= faces for v in values):
                    raise ValueError(f"the scenario's dice {list(values)} are not all 1..{faces}")
                return values
            case RangeRequest(low, high):
                if not self.integers:
                    return None
                value = self.integers.pop(0)
                if not low <= value <= high:
                    raise ValueError(f"the scenario's integer {value} is not in {low}..{high}")
                return (value,)
            case ShuffleRequest(n):
                if not self.shuffles:
                    return None
                order = self.shuffles.pop(0)
                if sorted(order) != list(range(n)):
                    raise ValueError(f"the scenario's shuffle {list(order)} is not a permutation of 0..{n - 1}")
                return order

    @property
    def left(self) -> int:
        return len(self.dice) + len(self.integers) + len(self.shuffles)
