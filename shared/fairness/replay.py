"""Draws made by the recipe in-process, and the audit's recomputation of recorded draws."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from shared.fairness.recipe import answer
from shared.fairness.stream import Keyed, check_nonce
from shared.games.draws import Draw, DrawRequest


class FairDraws:
    """A ``Draws`` whose n-th draw uses nonce ``first_nonce + n``."""

    def __init__(self, server_seed: bytes, game_id: str, client_seeds: Sequence[str], first_nonce: int = 0) -> None:
        self._keyed = Keyed(server_seed, game_id, client_seeds)
        self.nonce = check_nonce(first_nonce)
        self.used: list[Draw] = []

    def take(self, request: DrawRequest) -> tuple[int, ...]:
        values = answer(self._keyed.stream(self.nonce), request)
        self.nonce += 1
        self.used.append(Draw(request, values))
        return values


class Mismatch(NamedTuple):
    nonce: int
    expected: tuple[int, ...]
    """What the recipe gives for this nonce and request."""
    found: tuple[int, ...]
    """What was recorded."""


def recompute(
    server_seed: bytes, game_id: str, client_seeds: Sequence[str], draws_with_nonces: Iterable[tuple[int, Draw]]
) -> Mismatch | None:
    """The first recorded draw whose values the recipe does not reproduce, or None when all match.

    Raises ValueError when the seeds, a nonce or a recorded request are not valid inputs of the recipe.
    """
    keyed = Keyed(server_seed, game_id, client_seeds)
    for nonce, recorded in draws_with_nonces:
        expected = answer(keyed.stream(nonce), recorded.request)
        if tuple(recorded.values) != expected:
            return Mismatch(nonce, expected, tuple(recorded.values))
    return None
