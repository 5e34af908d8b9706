from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.fairness import FairDraws, draw
from shared.games.draws import DiceRequest, DrawRequest, RangeRequest, ShuffleRequest, integer, roll, shuffled
from tests.unit.fairness import reference

SEED = bytes.fromhex("9f" * 32)
GAME = "game-recipe"
SEEDS = ("north", "south")
LONG = DiceRequest(20, 16)


def test_same_inputs_give_the_same_values() -> None:
    first = [draw(SEED, GAME, SEEDS, n, LONG) for n in range(20)]
    again = [draw(bytearray(SEED), GAME, list(SEEDS), n, LONG) for n in range(20)]  # type: ignore[arg-type]
    assert first == again


def test_each_input_changes_the_stream() -> None:
    base = draw(SEED, GAME, SEEDS, 5, LONG)
    assert draw(SEED, GAME, SEEDS, 6, LONG) != base
    assert draw(bytes(32), GAME, SEEDS, 5, LONG) != base
    assert draw(SEED, "game-other", SEEDS, 5, LONG) != base
    assert draw(SEED, GAME, ("north", "south!"), 5, LONG) != base
    assert draw(SEED, GAME, ("south", "north"), 5, LONG) != base
    assert draw(SEED, GAME, ("north",), 5, LONG) != base
    assert draw(SEED, GAME, (), 5, LONG) != base


def test_field_boundaries_are_unambiguous() -> None:
    assert draw(SEED, GAME, ("ab",), 0, LONG) != draw(SEED, GAME, ("a", "b"), 0, LONG)
    assert draw(SEED, GAME, ("",), 0, LONG) != draw(SEED, GAME, (), 0, LONG)
    assert draw(SEED, "g1", ("x",), 0, LONG) != draw(SEED, "g", ("1x",), 0, LONG)


def test_a_one_value_range_reads_nothing() -> None:
    assert draw(SEED, GAME, SEEDS, 0, RangeRequest(-3, -3)) == (-3,)


def test_fair_draws_serve_the_games_helpers() -> None:
    draws = FairDraws(SEED, GAME, SEEDS, first_nonce=40)
    dice = roll(draws, 6, 2)
    value = integer(draws, 10, 20)
    deck = shuffled(draws, "abcde")
    assert dice == draw(SEED, GAME, SEEDS, 40, DiceRequest(6, 2))
    assert value == draw(SEED, GAME, SEEDS, 41, RangeRequest(10, 20))[0]
    order = draw(SEED, GAME, SEEDS, 42, ShuffleRequest(5))
    assert deck == tuple("abcde"[i] for i in order)
    assert draws.nonce == 43
    assert [d.request for d in draws.used] == [DiceRequest(6, 2), RangeRequest(10, 20), ShuffleRequest(5)]


requests = st.one_of(
    st.builds(DiceRequest, st.integers(2, 1000), st.integers(1, 20)),
    st.integers(-(2**70), 2**70).flatmap(
        lambda low: st.builds(RangeRequest, st.just(low), st.integers(low, low + 2**80))
    ),
    st.builds(ShuffleRequest, st.integers(0, 80)),
)


@settings(max_examples=300, deadline=None)
@given(request=requests, nonce=st.integers(0, 2**64 - 1), game=st.text(max_size=12))
def test_values_are_in_range_and_agree_with_the_reference(request: DrawRequest, nonce: int, game: str) -> None:
    values = draw(SEED, game, SEEDS, nonce, request)
    reader = reference.Reader(SEED, game, list(SEEDS), nonce)
    match request:
        case DiceRequest(faces, count):
            assert len(values) == count and all(1 <= v <= faces for v in values)
            assert values == reference.dice(reader, faces, count)
        case RangeRequest(low, high):
            assert len(values) == 1 and low <= values[0] <= high
            assert values == reference.in_range(reader, low, high)
        case ShuffleRequest(n):
            assert sorted(values) == list(range(n))
            assert values == reference.shuffle(reader, n)
