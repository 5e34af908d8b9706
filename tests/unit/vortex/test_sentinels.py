"""Seed Movement and Battle phases: Sentinels."""

from __future__ import annotations

import pytest

from shared.games.rules import RuleViolation
from shared.games.vortex import rules
from shared.games.vortex.commands import ChooseSpiral, PlaceMonster, Roll
from shared.games.vortex.events import PhantomTransported, SentinelBattled, SentinelIgnored

from .support import act, board_with, dice, monster, of_type, put, started

OUTER_SENTINEL_STONE = 8
COURTYARD_SENTINEL_STONE = 14


def beside_outer_sentinel(coins: int):
    return act(put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=coins), Roll(seat=0), 2)


@pytest.mark.parametrize("coins", [0, 3, 5])
def test_sentinel_ignores_fewer_than_six_coins(coins: int) -> None:
    """vortex.sentinel.six-coins: "If you have less than six coins the Sentinel will ignore you." """
    events, after = beside_outer_sentinel(coins)
    assert of_type(events, SentinelIgnored) == [SentinelIgnored(seat=0, region="outer", stone=OUTER_SENTINEL_STONE,
                                                                coins=coins)]
    assert after.phase == "magic" and after.phantoms[0].region == "outer" and after.phantoms[0].coins == coins


@pytest.mark.parametrize("coins", [6, 9])
def test_sentinel_must_be_fought_with_six_coins(coins: int) -> None:
    """vortex.sentinel.six-coins: "you must have at least six coins to battle the Sentinel" (RULES.md: must fight)."""
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=coins)
    events, _ = act(state, Roll(seat=0), 2, 5)
    assert of_type(events, SentinelBattled) == [SentinelBattled(seat=0, region="outer", stone=OUTER_SENTINEL_STONE,
                                                                roll=5, won=False, coins=coins - 2)]


@pytest.mark.parametrize("win", [1, 2, 3])
def test_sentinel_outer_win_transports_to_chosen_purple_spiral(win: int) -> None:
    """vortex.sentinel.win-outer: "you are transported to any purple spiral in the Courtyard. You then lose any
    coins you had, but collect the three shown on the purple spiral stones." """
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=9)
    _, won = act(state, Roll(seat=0), 2, win)
    assert won.phase == "spiral" and won.spiral == "purple"
    events, after = act(won, ChooseSpiral(seat=0, stone=8))
    assert events == [PhantomTransported(seat=0, region="courtyard", stone=8, coins=3)]
    assert (after.phantoms[0].region, after.phantoms[0].stone, after.phantoms[0].coins) == ("courtyard", 8, 3)
    assert after.phase == "magic"


def test_sentinel_outer_win_any_purple_spiral_is_offered() -> None:
    """vortex.spiral.choice: RULES.md "'Any purple/orange spiral' is the player's choice (a command)"."""
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=9)
    _, won = act(state, Roll(seat=0), 2, 1)
    assert rules.legal_commands(won, 0) == [ChooseSpiral(seat=0, stone=stone) for stone in (0, 4, 8, 12)]


def test_spiral_not_purple() -> None:
    """vortex.spiral.not-purple: a stone that is not a purple spiral is refused."""
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=9)
    _, won = act(state, Roll(seat=0), 2, 1)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(won, ChooseSpiral(seat=0, stone=5), dice())
    assert caught.value.code == "vortex.spiral.not-purple"
    assert "0, 4, 8, 12" in caught.value.message


def test_sentinel_win_must_choose_spiral_before_magic() -> None:
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=9)
    _, won = act(state, Roll(seat=0), 2, 1)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(won, PlaceMonster(seat=0, monster="skeletal-hand", headstone="O1"), dice())
    assert caught.value.code == "vortex.turn.out-of-phase"


def test_sentinel_courtyard_win_transports_to_chosen_orange_spiral_without_coins() -> None:
    """vortex.sentinel.win-courtyard: "Defeating a Courtyard Sentinel transports you to any orange spiral in the
    Temple. You then lose all coins"."""
    state = put(started(), 0, region="courtyard", stone=COURTYARD_SENTINEL_STONE - 2, coins=7)
    events, won = act(state, Roll(seat=0), 2, 3)
    assert of_type(events, SentinelBattled)[0].won
    assert won.spiral == "orange"
    _, after = act(won, ChooseSpiral(seat=0, stone=4))
    assert (after.phantoms[0].region, after.phantoms[0].stone, after.phantoms[0].coins) == ("temple", 4, 0)


def test_spiral_not_orange() -> None:
    """vortex.spiral.not-orange: the black spiral (0) is not an orange spiral."""
    state = put(started(), 0, region="courtyard", stone=COURTYARD_SENTINEL_STONE - 2, coins=7)
    _, won = act(state, Roll(seat=0), 2, 3)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(won, ChooseSpiral(seat=0, stone=0), dice())
    assert caught.value.code == "vortex.spiral.not-orange"


@pytest.mark.parametrize("loss", [4, 5, 6])
def test_sentinel_lose_two_coins(loss: int) -> None:
    """vortex.sentinel.lose: "If a Sentinel defeats you, you lose two coins." (and you stay where you are)"""
    state = put(started(), 0, stone=OUTER_SENTINEL_STONE - 2, coins=6)
    _, after = act(state, Roll(seat=0), 2, loss)
    assert after.phantoms[0].coins == 4
    assert (after.phantoms[0].region, after.phantoms[0].stone) == ("outer", OUTER_SENTINEL_STONE)
    assert after.phase == "magic"


def test_sentinel_transport_is_not_a_landing() -> None:
    """vortex.spiral.no-landing (decision): arriving by transport is not landing: no battle beside the spiral."""
    board = board_with(lambda d: d["courtyard"]["headstones"][3].__setitem__("between", [12, 13]))
    state = put(started(board=board), 0, stone=OUTER_SENTINEL_STONE - 2, coins=9)
    state = monster(state, 1, "thing-from-beyond", "C4")
    _, won = act(state, Roll(seat=0), 2, 1)
    events, after = act(won, ChooseSpiral(seat=0, stone=12))  # act checks no die was needed
    assert events == [PhantomTransported(seat=0, region="courtyard", stone=12, coins=3)]
    assert after.phantoms[1].headstone == "C4" and after.phantoms[0].coins == 3
