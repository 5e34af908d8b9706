"""Two bots: ``random`` picks any legal command; ``greedy`` takes the best-looking one-step choice."""

from __future__ import annotations

import random

from shared.games.vortex.board import BLACK_STONE, RING_SIZES, SHOVEL_COINS, STONE_COINS, RegionName
from shared.games.vortex.commands import (
    ChooseDirection,
    ChooseSpiral,
    Command,
    KeepMonster,
    MoveMonster,
    PlaceMonster,
    Roll,
    RollRecall,
    TryVortex,
)
from shared.games.vortex.landing import target
from shared.games.vortex.legal import legal_commands
from shared.games.vortex.state import MONSTER_COST, State

FACES = range(1, 7)


def random_bot(state: State, seat: int, rng: random.Random) -> Command:
    return rng.choice(legal_commands(state, seat))


def greedy_bot(state: State, seat: int, rng: random.Random) -> Command:
    phantom = state.current
    match state.phase:
        case "roll":
            return Roll(seat=seat)
        case "direction":
            assert state.roll is not None
            steps = state.roll
            return min(
                (ChooseDirection(seat=seat, direction="clockwise"),
                 ChooseDirection(seat=seat, direction="counterclockwise")),
                key=lambda c: _distance_to_black(target(phantom.stone, steps, c.direction, RING_SIZES["temple"])),
            )
        case "vortex":
            return TryVortex(seat=seat)
        case "spiral":
            assert state.spiral is not None
            region: RegionName = "courtyard" if state.spiral == "purple" else "temple"
            stones = state.board.spirals(state.spiral)
            return ChooseSpiral(seat=seat, stone=max(stones, key=lambda s: _expected_coins(state, region, s)))
        case "magic":
            if phantom.monster is None and not phantom.hand:
                return RollRecall(seat=seat)
            free = state.free_headstones()
            best = max(free, key=lambda h: _lure(state, seat, h))
            if phantom.monster is None:
                return PlaceMonster(seat=seat, monster=max(phantom.hand, key=MONSTER_COST.__getitem__), headstone=best)
            assert phantom.headstone is not None
            if _lure(state, seat, best) > _lure(state, seat, phantom.headstone):
                return MoveMonster(seat=seat, headstone=best)
            return KeepMonster(seat=seat)
        case "over":
            raise ValueError("the race is over")


def _distance_to_black(stone: int) -> int:
    ring = RING_SIZES["temple"]
    return min((stone - BLACK_STONE) % ring, (BLACK_STONE - stone) % ring)


def _expected_coins(state: State, region: RegionName, stone: int) -> float:
    stones = state.board.region(region).stones
    total = 0.0
    for roll in FACES:
        kind = stones[(stone + roll) % len(stones)]
        total += STONE_COINS.get(kind, SHOVEL_COINS / 2 if kind == "shovel" else 0)
    return total / len(FACES)


def _lure(state: State, seat: int, headstone_id: str) -> float:
    """Expected opponents (minus oneself) landing beside that headstone on their next roll."""
    headstone = state.board.headstone(headstone_id)
    assert headstone is not None
    region: RegionName = "outer" if headstone in state.board.outer.headstones else "courtyard"
    score = 0.0
    for phantom in state.phantoms:
        if phantom.region != region:
            continue
        hits = sum((phantom.stone + roll) % RING_SIZES[region] in headstone.between for roll in FACES)
        score += hits / len(FACES) * (-1 if phantom.seat == seat else 1)
    return score


BOTS = {"random": random_bot, "greedy": greedy_bot}
