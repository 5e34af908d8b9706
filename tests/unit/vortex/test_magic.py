"""Seed Magic phase: placing, moving and keeping monsters; limbo and the roll to recall."""

from __future__ import annotations

import pytest

from shared.games.rules import RuleViolation
from shared.games.vortex import rules
from shared.games.vortex.commands import KeepMonster, MonsterKind, MoveMonster, PlaceMonster, Roll, RollRecall
from shared.games.vortex.events import MonsterMoved, MonsterPlaced, RecallRolled, TurnEnded

from .support import act, at, dice, monster, put, started

ALL: tuple[MonsterKind, ...] = ("skeletal-hand", "skeletal-warrior", "thing-from-beyond")


def in_magic(**changes: object):
    return at(put(started(), 0, **changes), phase="magic")


def rejected(state, command, code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        rules.decide(state, command, dice(1))
    assert caught.value.code == code
    assert caught.value.message


def test_magic_phase_follows_battle() -> None:
    """vortex.turn.phases: "Movement phase, then the Battle phase, and finally the Magic phase"."""
    _, after = act(started(), Roll(seat=0), 2)
    assert after.phase == "magic" and after.turn == 0


@pytest.mark.parametrize("kind", ALL)
def test_magic_place_any_one_monster_on_a_free_headstone(kind: MonsterKind) -> None:
    """vortex.magic.place: "If player has no monsters on the board, player chooses any ONE of his monsters, and
    places it over any headstone that doesn't already have a monster." """
    events, after = act(in_magic(), PlaceMonster(seat=0, monster=kind, headstone="C3"))
    assert events[0] == MonsterPlaced(seat=0, monster=kind, headstone="C3")
    assert after.phantoms[0].monster == kind and after.phantoms[0].headstone == "C3"
    assert kind not in after.phantoms[0].hand and len(after.phantoms[0].hand) == 2


def test_magic_place_is_required_when_none_on_board() -> None:
    """vortex.magic.must-place (decision): with no monster on the board, placing one is not optional."""
    rejected(in_magic(), KeepMonster(seat=0), "vortex.magic.must-place")


def test_magic_headstone_taken() -> None:
    """vortex.magic.headstone-taken: "any headstone that doesn't already have a monster"."""
    state = monster(in_magic(), 2, "skeletal-hand", "O2")
    rejected(state, PlaceMonster(seat=0, monster="skeletal-warrior", headstone="O2"), "vortex.magic.headstone-taken")


def test_magic_monsters_never_enter_the_temple() -> None:
    """vortex.magic.no-such-headstone: "Monsters can NOT enter the Temple" — only Outer/Courtyard headstones."""
    rejected(in_magic(), PlaceMonster(seat=0, monster="skeletal-hand", headstone="T1"),
             "vortex.magic.no-such-headstone")
    headstones = {c.headstone for c in rules.legal_commands(in_magic(), 0) if isinstance(c, PlaceMonster)}
    assert headstones == {"O1", "O2", "O3", "O4", "C1", "C2", "C3", "C4"}


def test_magic_player_in_temple_still_places_anywhere() -> None:
    """vortex.magic.place: "if a player is in the Temple he can still place his monsters anywhere in the Courtyard
    or Outer Grounds." """
    state = in_magic(region="temple", stone=5, coins=0)
    _, after = act(state, PlaceMonster(seat=0, monster="thing-from-beyond", headstone="O4"))
    assert after.phantoms[0].headstone == "O4"


def test_magic_one_monster_on_board() -> None:
    """vortex.magic.one-monster: a player with a monster on the board may move it or leave it, not add another."""
    state = monster(in_magic(), 0, "skeletal-hand", "O1")
    rejected(state, PlaceMonster(seat=0, monster="skeletal-warrior", headstone="O2"), "vortex.magic.one-monster")


def test_magic_move_any_distance_between_outer_and_courtyard() -> None:
    """vortex.magic.move: "the monster can be moved to any other headstone ... between the Outer Grounds and
    Courtyard, and can move any distance in any direction." """
    state = monster(in_magic(), 0, "skeletal-warrior", "O1")
    events, after = act(state, MoveMonster(seat=0, headstone="C4"))
    assert events[0] == MonsterMoved(seat=0, monster="skeletal-warrior", start="O1", headstone="C4")
    assert after.phantoms[0].headstone == "C4" and after.monster_on("O1") is None


def test_magic_keep_leaves_it_where_it_is() -> None:
    """vortex.magic.move: "... or left where it is." Keeping ends the turn."""
    state = monster(in_magic(), 0, "skeletal-warrior", "O1")
    events, after = act(state, KeepMonster(seat=0))
    assert after.phantoms[0].headstone == "O1"
    assert events[-1] == TurnEnded(seat=0, next_seat=1, round=1) and after.turn == 1 and after.phase == "roll"


def test_magic_move_to_same_headstone_is_not_a_move() -> None:
    state = monster(in_magic(), 0, "skeletal-warrior", "O1")
    rejected(state, MoveMonster(seat=0, headstone="O1"), "vortex.magic.same-headstone")


def test_magic_move_needs_a_monster_on_board() -> None:
    rejected(in_magic(), MoveMonster(seat=0, headstone="O1"), "vortex.magic.no-monster-on-board")


def test_magic_place_a_different_monster_after_limbo() -> None:
    """vortex.magic.monster-in-limbo: "You may then place a different monster on the board next turn." """
    state = in_magic(hand=("skeletal-hand", "thing-from-beyond"), limbo=("skeletal-warrior",))
    rejected(state, PlaceMonster(seat=0, monster="skeletal-warrior", headstone="O1"), "vortex.magic.monster-in-limbo")
    _, after = act(state, PlaceMonster(seat=0, monster="skeletal-hand", headstone="O1"))
    assert after.phantoms[0].monster == "skeletal-hand"


def all_in_limbo():
    return in_magic(hand=(), limbo=ALL)


def test_magic_recall_required_before_playing() -> None:
    """vortex.magic.recall-first: "If all three of your monsters are in limbo ... you must roll to get them back
    before you can play one." """
    rejected(all_in_limbo(), PlaceMonster(seat=0, monster="skeletal-hand", headstone="O1"), "vortex.magic.recall-first")
    assert rules.legal_commands(all_in_limbo(), 0) == [RollRecall(seat=0)]


@pytest.mark.parametrize("die", [1, 2, 3])
def test_magic_recall_one_to_three_gets_them_all_back(die: int) -> None:
    """vortex.magic.recall: "Roll 1-3 and you get them all back" — then one is placed in the same Magic phase."""
    events, after = act(all_in_limbo(), RollRecall(seat=0), die)
    assert events == [RecallRolled(seat=0, roll=die, recalled=True)]
    assert after.phantoms[0].hand == ALL and after.phantoms[0].limbo == ()
    assert after.phase == "magic" and after.turn == 0
    _, placed = act(after, PlaceMonster(seat=0, monster="thing-from-beyond", headstone="C1"))
    assert placed.phantoms[0].headstone == "C1" and placed.turn == 1


@pytest.mark.parametrize("die", [4, 5, 6])
def test_magic_recall_four_to_six_they_stay_and_turn_ends(die: int) -> None:
    """vortex.magic.recall: "Roll 4-6 and they stay in limbo." """
    events, after = act(all_in_limbo(), RollRecall(seat=0), die)
    assert events == [RecallRolled(seat=0, roll=die, recalled=False), TurnEnded(seat=0, next_seat=1, round=1)]
    assert after.phantoms[0].limbo == ALL and after.turn == 1


def test_magic_recall_only_when_all_in_limbo() -> None:
    state = in_magic(hand=("skeletal-hand",), limbo=("skeletal-warrior", "thing-from-beyond"))
    rejected(state, RollRecall(seat=0), "vortex.magic.recall-only-all-in-limbo")


def test_magic_recall_not_with_a_monster_on_board() -> None:
    state = in_magic(hand=(), limbo=("skeletal-warrior", "thing-from-beyond"), monster="skeletal-hand", headstone="O3")
    rejected(state, RollRecall(seat=0), "vortex.magic.recall-only-all-in-limbo")
