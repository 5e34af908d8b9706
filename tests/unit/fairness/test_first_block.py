from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.fairness import draw
from shared.fairness.recipe import draw_from_first_block
from shared.fairness.stream import BLOCK_BYTES, BlockMissing, Keyed
from shared.games.draws import DiceRequest, DrawRequest, RangeRequest, ShuffleRequest

SEED = bytes(range(32))
requests = st.one_of(
    st.builds(DiceRequest, st.integers(2, 20), st.integers(1, 6)),
    st.builds(lambda low, span: RangeRequest(low, low + span), st.integers(-10**6, 10**6), st.integers(0, 10**9)),
    st.builds(ShuffleRequest, st.integers(0, 12)),
)


@given(request=requests, nonce=st.integers(0, 2**40), seeds=st.lists(st.text(min_size=1, max_size=8), max_size=3))
def test_a_draw_from_its_first_block_is_the_draw_or_asks_for_more(request: DrawRequest, nonce: int,
                                                                  seeds: list[str]) -> None:
    block = Keyed(SEED, "hockeydice-game", seeds).first_blocks(nonce, 1)
    try:
        values = draw_from_first_block(block, nonce, request)
    except BlockMissing:
        return  # the engine asks the RNG service for this one whole
    assert values == draw(SEED, "hockeydice-game", seeds, nonce, request)


def test_blocks_of_many_nonces_come_one_after_the_other() -> None:
    keyed = Keyed(SEED, "vortex-game", ["a"])
    blocks = keyed.first_blocks(7, 3)
    assert [blocks[i * BLOCK_BYTES:(i + 1) * BLOCK_BYTES] for i in range(3)] == [keyed.block(n, 0) for n in (7, 8, 9)]


def test_a_long_shuffle_needs_more_than_its_first_block() -> None:
    block = Keyed(SEED, "phantoms-game", []).first_blocks(0, 1)
    with pytest.raises(BlockMissing):
        draw_from_first_block(block, 0, ShuffleRequest(52))
    with pytest.raises(ValueError):
        draw_from_first_block(block[:16], 0, DiceRequest(6, 1))
