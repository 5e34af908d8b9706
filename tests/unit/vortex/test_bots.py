"""The random and greedy bots choose among legal commands; greedy takes the obvious good choice."""

from __future__ import annotations

import random

from shared.games.vortex import rules
from shared.games.vortex.commands import ChooseDirection, PlaceMonster, Roll, TryVortex

from .support import act, at, put, started


def test_bots_random_picks_a_legal_command() -> None:
    state = at(started(), phase="magic")
    rng = random.Random(3)
    picks = {rules.bots["random"](state, 0, rng) for _ in range(50)}
    assert picks <= set(rules.legal_commands(state, 0)) and len(picks) > 5


def test_bots_greedy_walks_onto_the_black_spiral_and_tries_the_vortex() -> None:
    state = put(started(), 0, region="temple", stone=9, coins=0)
    _, state = act(state, Roll(seat=0), 3)
    assert rules.bots["greedy"](state, 0, random.Random(0)) == ChooseDirection(seat=0, direction="clockwise")
    _, state = act(state, ChooseDirection(seat=0, direction="clockwise"))
    assert rules.bots["greedy"](state, 0, random.Random(0)) == TryVortex(seat=0)


def test_bots_greedy_places_its_strongest_monster_where_opponents_may_land() -> None:
    state = at(put(started(2), 1, stone=20), phase="magic")  # seat 1 at 20 lands beside O4 (21|22) on 1 or 2
    command = rules.bots["greedy"](state, 0, random.Random(0))
    assert command == PlaceMonster(seat=0, monster="thing-from-beyond", headstone="O4")
