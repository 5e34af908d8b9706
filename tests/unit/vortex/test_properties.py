"""Properties over whole bot games (hypothesis picks seeds, table size and bots)."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games.draws import RecordedDraws, SeededDraws
from shared.games.rules import fold
from shared.games.vortex import Options, rules
from shared.games.vortex.board import RING_SIZES
from shared.games.vortex.events import Event
from shared.games.vortex.state import MONSTERS, State

STEPS = 250
games = st.tuples(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["random", "greedy"]))


def invariants(state: State) -> None:
    outer_and_courtyard = {h.id for h in state.board.outer.headstones + state.board.courtyard.headstones}
    placed = [p.headstone for p in state.phantoms if p.headstone is not None]
    assert len(placed) == len(set(placed)), "two monsters on one headstone"
    for p in state.phantoms:
        assert 0 <= p.coins <= 9, "vortex.coins.cap-nine / debt-ignored"
        assert 0 <= p.stone < RING_SIZES[p.region], "a phantom is on a stone of its region"
        assert p.headstone is None or p.headstone in outer_and_courtyard, "monsters never in the Temple"
        assert (p.monster is None) == (p.headstone is None)
        assert sorted([*p.hand, *p.limbo, *([p.monster] if p.monster else [])]) == sorted(MONSTERS)
        if p.region == "temple":
            assert p.coins == 0


def play(seed: int, seats: int, kind: str, every_legal: bool = False) -> tuple[list[Event], State]:
    rng = random.Random(seed)
    events: list[Event] = list(rules.new_game(Options(), seats, SeededDraws(rng)))
    state = fold(rules, events)
    assert state is not None
    for _ in range(STEPS):
        if rules.is_over(state):
            break
        (seat,) = rules.pending_seats(state)
        command = rules.bots[kind](state, seat, rng)
        legal = rules.legal_commands(state, seat)
        assert command in legal
        if every_legal:
            for other in legal:
                rules.decide(state, other, SeededDraws(random.Random(seed)))
        draws = SeededDraws(rng)
        before = msgspec.json.encode(state)
        new = rules.decide(state, command, draws)
        assert msgspec.json.encode(state) == before, "decide must not change its input"
        assert rules.decide(state, command, RecordedDraws(draws.used)) == new, "audit replay gives the same events"
        for event in new:
            state = rules.evolve(state, event)
        events.extend(new)
        invariants(state)
    return events, state


@settings(max_examples=20, deadline=None)
@given(games)
def test_property_invariants_hold_through_bot_games(game: tuple[int, int, str]) -> None:
    """Coins always 0-9; a phantom always on a stone of its region; monsters never in the Temple; audit replay."""
    play(*game)


@settings(max_examples=15, deadline=None)
@given(games)
def test_property_refold_gives_equal_state(game: tuple[int, int, str]) -> None:
    """Re-folding the events, also after a JSON round trip as the event store keeps them, gives an equal state."""
    events, state = play(*game)
    assert fold(rules, events) == state
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[Event])
    assert decoded == events
    assert fold(rules, decoded) == state


@settings(max_examples=8, deadline=None)
@given(games)
def test_property_every_legal_command_is_accepted(game: tuple[int, int, str]) -> None:
    """legal_commands lists only commands that decide accepts (it raises RuleViolation otherwise)."""
    play(*game, every_legal=True)
