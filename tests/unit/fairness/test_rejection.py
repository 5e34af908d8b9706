"""Rejection sampling, checked against the naive reference in ``reference.py``."""

from __future__ import annotations

import pytest

from shared.fairness import draw
from shared.games.draws import DiceRequest, RangeRequest
from tests.unit.fairness import reference

SEED = bytes.fromhex("5a" * 32)
GAME = "game-rejection"
SEEDS = ["p1", "p2", "p3"]


@pytest.mark.parametrize(
    ("low", "high", "width"),
    [
        (0, 128, 1),
        (1, 2**16 + 1, 3),
        (-(2**33), 2**33, 5),
        (0, 2**300, 38),
    ],
)
def test_ranges_whose_mask_leaves_half_unused_reject_and_match_the_reference(low: int, high: int, width: int) -> None:
    rejections = 0
    for nonce in range(40):
        reader = reference.Reader(SEED, GAME, SEEDS, nonce)
        expected = reference.in_range(reader, low, high)
        assert draw(SEED, GAME, SEEDS, nonce, RangeRequest(low, high)) == expected
        assert reader.consumed == width * (reader.rejections + 1)
        rejections += reader.rejections
    assert rejections >= 10


def test_dice_reject_the_masked_values_above_the_faces() -> None:
    reader = reference.Reader(SEED, GAME, SEEDS, 7)
    expected = reference.dice(reader, 6, 200)
    assert draw(SEED, GAME, SEEDS, 7, DiceRequest(6, 200)) == expected
    assert reader.rejections > 20
    assert reader.consumed == 200 + reader.rejections


def test_a_power_of_two_never_rejects() -> None:
    reader = reference.Reader(SEED, GAME, SEEDS, 3)
    assert draw(SEED, GAME, SEEDS, 3, DiceRequest(256, 100)) == reference.dice(reader, 256, 100)
    assert reader.rejections == 0
