from __future__ import annotations

import pytest

from shared.games.hockeydice.commands import ChoosePlay
from shared.games.hockeydice.events import PlayChosen, PuckMoved, ShotRolled
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.rink import Role, role

from .helpers import CHECK, GOALIE_MASK, PUCK, REF, STICK, act, contest, dice, of_type, start

WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)
FOUR_PUCKS = (PUCK,) * 4 + (STICK, CHECK)
FOUR_STICKS = (STICK,) * 4 + (PUCK, CHECK)


@pytest.mark.parametrize("puck", [1, 2, 3, 4])
def test_hockey_rink_offense_when_puck_on_opponent_side(puck: int) -> None:
    assert role(puck, 0) is Role.OFFENSE
    assert role(-puck, 1) is Role.OFFENSE
    events, after = contest(start(puck=-2), WEAK, FOUR_PUCKS)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=1, play=Play.SAUCER_PASS)]
    assert after.puck == -4


@pytest.mark.parametrize("puck", [1, 2, 3, 4])
def test_hockey_rink_defense_when_puck_on_own_side(puck: int) -> None:
    assert role(-puck, 0) is Role.DEFENSE
    assert role(puck, 1) is Role.DEFENSE
    events, _ = contest(start(puck=puck), WEAK, FOUR_PUCKS)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=1, play=Play.PUSH_BACK_2)]


def test_hockey_rink_defense_push_back_crosses_centre() -> None:
    events, after = contest(start(puck=1), WEAK, FOUR_PUCKS)
    assert of_type(events, PuckMoved) == [PuckMoved(seat=1, to=-1)]
    assert role(after.puck, 1) is Role.OFFENSE


@pytest.mark.parametrize(("home", "away", "winner", "to"), [(FOUR_PUCKS, WEAK, 0, 2), (WEAK, FOUR_PUCKS, 1, -2)])
def test_hockey_rink_centre_both_teams_roll_as_offense(home, away, winner: int, to: int) -> None:
    assert role(0, 0) is Role.OFFENSE and role(0, 1) is Role.OFFENSE
    events, after = contest(start(), home, away)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=winner, play=Play.SAUCER_PASS)]
    assert after.puck == to


@pytest.mark.parametrize(("puck", "modifier"), [(2, -1), (3, 0), (4, 1)])
def test_hockey_rink_sections_give_the_shot_modifier(puck: int, modifier: int) -> None:
    stick_only = (STICK,) * 5 + (PUCK,)
    state = start(puck=puck)
    if puck == 4:
        events, _ = contest(state, stick_only, WEAK, dice(*stick_only), dice(GOALIE_MASK))
    else:
        _, waiting = contest(state, stick_only, WEAK)
        events, _ = act(waiting, ChoosePlay(seat=0, play=Play.SHOOT), dice(*stick_only), dice(GOALIE_MASK))
    assert of_type(events, ShotRolled)[0].modifier == modifier


def test_hockey_rink_sections_neutral_has_no_shot() -> None:
    events, after = contest(start(puck=1), FOUR_STICKS, WEAK)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=0, play=Play.ADVANCE)]
    assert of_type(events, ShotRolled) == []
    assert after.puck == 2
