"""Seed Movement phase: coin stones, digging, the nine-coin cap and ignored debt."""

from __future__ import annotations

import pytest

from shared.games.vortex.commands import ChooseDirection, Roll
from shared.games.vortex.events import CoinsCollected, Dug

from .support import act, at, monster, of_type, put, started


@pytest.mark.parametrize(("steps", "amount"), [(1, 2), (3, 3)])
def test_coins_stone_collects_two_or_three(steps: int, amount: int) -> None:
    """vortex.coins.stone: "If you land on a stone with two or three coins, you collect that many coins." """
    state = put(started(), 0, stone=0, coins=2)
    events, after = act(state, Roll(seat=0), steps)
    assert of_type(events, CoinsCollected) == [CoinsCollected(seat=0, amount=amount, coins=2 + amount)]
    assert after.phantoms[0].coins == 2 + amount


def test_coins_stone_is_not_used_up() -> None:
    """vortex.coins.stone (decision): coins are printed on the stone; the next phantom to land collects them too."""
    state = put(put(started(), 0, stone=0, coins=0), 1, stone=0, coins=0)
    _, state = act(state, Roll(seat=0), 1)
    state = at(state, turn=1, phase="roll")
    events, after = act(state, Roll(seat=1), 1)
    assert after.phantoms[1].coins == 2 and of_type(events, CoinsCollected)


def test_coins_purple_spiral_stone_shows_three() -> None:
    """vortex.coins.stone (decision): a purple spiral stone shows 3 coins, so landing there by a roll collects 3."""
    state = put(started(), 0, region="courtyard", stone=2, coins=1)
    events, after = act(state, Roll(seat=0), 2)
    assert after.phantoms[0].stone == 4
    assert of_type(events, CoinsCollected) == [CoinsCollected(seat=0, amount=3, coins=4)]


def test_coins_plain_stone_and_spiral_give_nothing() -> None:
    state = put(started(), 0, stone=0, coins=2)
    events, after = act(state, Roll(seat=0), 2)
    assert after.phantoms[0].coins == 2 and not of_type(events, CoinsCollected)


@pytest.mark.parametrize("dig", [1, 2, 3])
def test_coins_dig_found_on_one_to_three(dig: int) -> None:
    """vortex.coins.dig: "If the stone has a shovel ... Roll 1-3 and you find them" (3 buried coins)."""
    state = put(started(), 0, stone=0, coins=2)
    events, after = act(state, Roll(seat=0), 4, dig)
    assert of_type(events, Dug) == [Dug(seat=0, roll=dig, found=True, coins=5)]
    assert after.phantoms[0].coins == 5


@pytest.mark.parametrize("dig", [4, 5, 6])
def test_coins_dig_not_found_on_four_to_six(dig: int) -> None:
    """vortex.coins.dig: "roll 4-6 and you do not find them." """
    state = put(started(), 0, stone=0, coins=2)
    events, after = act(state, Roll(seat=0), 4, dig)
    assert of_type(events, Dug) == [Dug(seat=0, roll=dig, found=False, coins=2)]
    assert after.phantoms[0].coins == 2


@pytest.mark.parametrize(("coins", "steps", "rolls"), [(8, 3, ()), (9, 1, ()), (7, 4, (1,))])
def test_coins_cap_nine(coins: int, steps: int, rolls: tuple[int, ...]) -> None:
    """vortex.coins.cap-nine: "You can never have more than nine coins at once." """
    state = put(started(), 0, stone=0, coins=coins)
    _, after = act(state, Roll(seat=0), steps, *rolls)
    assert after.phantoms[0].coins == 9


def test_coins_cap_nine_on_monster_win() -> None:
    """vortex.coins.cap-nine: the two coins for defeating a monster stop at nine as well."""
    state = monster(put(started(), 0, stone=0, coins=9), 1, "skeletal-hand", "O1")
    _, after = act(state, Roll(seat=0), 3, 2)
    assert after.phantoms[0].coins == 9


def test_coins_debt_ignored() -> None:
    """vortex.coins.debt-ignored: "If you owe more coins than you have, place your counter on zero"."""
    state = monster(put(started(), 0, stone=0, coins=1), 1, "thing-from-beyond", "O1")
    _, after = act(state, Roll(seat=0), 4, 6, 6)  # shovel stone 4: dig fails, then loses to the Thing (3 coins)
    assert after.phantoms[0].coins == 0


def test_coins_debt_ignored_later_gains_count_from_zero() -> None:
    """vortex.coins.debt-ignored: "any debt is ignored": the next coins are counted from zero, not from -2."""
    state = monster(put(started(), 0, stone=0, coins=1), 1, "thing-from-beyond", "O1")
    _, state = act(state, Roll(seat=0), 4, 6, 6)
    state = put(state, 0, stone=0)
    state = at(state, phase="roll")
    _, after = act(state, Roll(seat=0), 1)
    assert after.phantoms[0].coins == 2


def test_coins_none_in_the_temple() -> None:
    """vortex.board.temple: landing anywhere in the Temple collects nothing and fights nothing."""
    state = put(started(), 0, region="temple", stone=8, coins=0)
    _, state = act(state, Roll(seat=0), 3)
    events, after = act(state, ChooseDirection(seat=0, direction="clockwise"))
    assert len(events) == 1 and after.phantoms[0].coins == 0
