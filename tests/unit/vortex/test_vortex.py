"""Seed Movement and Battle phases: the black spiral and the fight for control of the Vortex."""

from __future__ import annotations

import pytest

from shared.games.rules import RuleViolation
from shared.games.vortex import rules
from shared.games.vortex.commands import ChooseDirection, ChooseSpiral, DeclineVortex, Roll, TryVortex
from shared.games.vortex.events import RaceEnded, VortexDeclined, VortexTried

from .support import act, dice, put, started


def on_black():
    """Seat 0 walks from the orange spiral at 4 to the black spiral at 0."""
    state = put(started(), 0, region="temple", stone=4, coins=0)
    _, state = act(state, Roll(seat=0), 4)
    _, state = act(state, ChooseDirection(seat=0, direction="counterclockwise"))
    return state


def test_vortex_landing_on_black_spiral_offers_the_try() -> None:
    """vortex.vortex.try: "If you land on the black spiral in the Temple, you may try to take control"."""
    state = on_black()
    assert state.phase == "vortex"
    assert rules.legal_commands(state, 0) == [TryVortex(seat=0), DeclineVortex(seat=0)]


def test_vortex_may_decline() -> None:
    """vortex.vortex.try: "you may try" — declining goes on to the Magic phase."""
    events, after = act(on_black(), DeclineVortex(seat=0))
    assert events == [VortexDeclined(seat=0)] and after.phase == "magic"


def test_vortex_passing_over_black_spiral_is_not_landing() -> None:
    state = put(started(), 0, region="temple", stone=4, coins=0)
    _, state = act(state, Roll(seat=0), 6)
    _, after = act(state, ChooseDirection(seat=0, direction="counterclockwise"))
    assert after.phantoms[0].stone == 10 and after.phase == "magic"


def test_vortex_try_only_on_black_spiral() -> None:
    with pytest.raises(RuleViolation) as caught:
        rules.decide(started(), TryVortex(seat=0), dice(1))
    assert caught.value.code == "vortex.turn.out-of-phase"


@pytest.mark.parametrize("die", [1, 2])
def test_vortex_one_or_two_wins_the_game(die: int) -> None:
    """vortex.vortex.win: "a roll of 1-2 will master the inter-spatial harmonics, meaning you WIN THE GAME!" """
    events, after = act(on_black(), TryVortex(seat=0), die)
    assert events == [VortexTried(seat=0, roll=die, outcome="mastered"), RaceEnded(winners=(0,), reason="vortex")]
    assert rules.is_over(after) and after.winners == (0,)
    assert rules.pending_seats(after) == frozenset()


@pytest.mark.parametrize("die", [3, 4])
def test_vortex_three_or_four_knocks_back_to_chosen_orange_spiral(die: int) -> None:
    """vortex.vortex.orange: "A roll of 3-4 means the VORTEX knocks you back to any orange spiral in the Temple." """
    _, knocked = act(on_black(), TryVortex(seat=0), die)
    assert knocked.phase == "spiral" and knocked.spiral == "orange"
    _, after = act(knocked, ChooseSpiral(seat=0, stone=8))
    assert (after.phantoms[0].region, after.phantoms[0].stone, after.phantoms[0].coins) == ("temple", 8, 0)
    assert after.phase == "magic"


def test_vortex_game_over_rejects_everything() -> None:
    """vortex.game.over: after a phantom masters the Vortex nobody may act."""
    _, after = act(on_black(), TryVortex(seat=0), 1)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(after, Roll(seat=1), dice(1))
    assert caught.value.code == "vortex.game.over"
    assert all(rules.legal_commands(after, seat) == [] for seat in range(4))


def test_vortex_knock_back_coins_orange_keeps_the_coins_purple_gives_the_three_shown() -> None:
    """Reading vortex.knock-back.coins: knocked back to an orange spiral the coins stay as they are (0 on a real
    board: the Temple has none; a position with 4 shows it), to a purple spiral they become the stone's three."""
    state = put(on_black(), 0, coins=4)
    _, orange = act(state, TryVortex(seat=0), 3)
    _, after = act(orange, ChooseSpiral(seat=0, stone=4))
    assert (after.phantoms[0].region, after.phantoms[0].coins) == ("temple", 4)
    _, purple = act(state, TryVortex(seat=0), 6)
    _, after = act(purple, ChooseSpiral(seat=0, stone=0))
    assert (after.phantoms[0].region, after.phantoms[0].coins) == ("courtyard", 3)


def test_vortex_knock_back_coins_refusal_of_a_wrong_spiral_says_the_reading() -> None:
    _, knocked = act(on_black(), TryVortex(seat=0), 5)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(knocked, ChooseSpiral(seat=0, stone=1), dice())
    assert caught.value.code == "vortex.spiral.not-purple" and "vortex.knock-back.coins" in caught.value.message
