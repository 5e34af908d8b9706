"""Whole bot games under hypothesis: they end, count shots and periods as written, and fold and audit exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games.draws import DrawsExhausted, RecordedDraws, SeededDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.events import Event, GameEnded, PeriodEnded, ShotCounted
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import AWAITING, Stage
from shared.games.rules import fold


@dataclass
class Game:
    options: HockeyOptions
    events: list[Any] = field(default_factory=list)
    turns: list[tuple[Any, Any, list[Any], list[Any]]] = field(default_factory=list)
    """(state before, command, draws used, events) for every command."""
    stages: list[Stage] = field(default_factory=list)
    """The stage in which each ShotCounted happened."""
    state: Any = None


def play(seed: int, kinds: tuple[str, str], options: HockeyOptions) -> Game:
    rng = random.Random(seed)
    game = Game(options)
    game.events = rules.new_game(options, 2, SeededDraws(rng))
    state = fold(rules, game.events)
    assert state is not None
    while not rules.is_over(state):
        assert state.phase in AWAITING
        seat = rng.choice(sorted(rules.pending_seats(state)))
        command = rules.bots[kinds[seat]](state, seat, rng)
        assert command in rules.legal_commands(state, seat)
        draws = SeededDraws(rng)
        events = rules.decide(state, command, draws)
        game.turns.append((state, command, list(draws.used), events))
        for event in events:
            if isinstance(event, ShotCounted):
                game.stages.append(state.stage)
            state = rules.evolve(state, event)
        game.events.extend(events)
        assert len(game.turns) < 20_000
    game.state = state
    return game


games = st.builds(
    play,
    seed=st.integers(0, 2**32 - 1),
    kinds=st.tuples(st.sampled_from(["random", "greedy"]), st.sampled_from(["random", "greedy"])),
    options=st.builds(HockeyOptions, power_chip_reroll=st.booleans()),
)
SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(games)
def test_hockey_end_a_game_always_ends_with_a_winner(game: Game) -> None:
    ended = [event for event in game.events if isinstance(event, GameEnded)]
    assert len(ended) == 1 and game.events[-1] is ended[0]
    winner = ended[0].winner
    assert game.state.winner == winner
    match ended[0].decided_in:
        case "regulation" | "overtime":
            assert game.state.score[winner] > game.state.score[1 - winner]
        case "shootout":
            assert game.state.score[0] == game.state.score[1]
            assert game.state.shootout_goals[winner] > game.state.shootout_goals[1 - winner]


@SETTINGS
@given(games)
def test_hockey_period_length_shots_and_periods_count_as_written(game: Game) -> None:
    options, state = game.options, game.state
    regulation = game.stages.count(Stage.REGULATION)
    overtime = game.stages.count(Stage.OVERTIME)
    shootout = game.stages.count(Stage.SHOOTOUT)
    assert regulation == options.periods * options.shots_per_period
    periods = [event.period for event in game.events if isinstance(event, PeriodEnded)]
    assert periods == list(range(1, len(periods) + 1))
    assert len(periods) >= options.periods
    goals = sum(1 for event in game.events if isinstance(event, ShotCounted) and event.goal)
    assert goals == sum(state.score) + sum(state.shootout_goals)
    assert sum(state.shots_by) == regulation + overtime
    if state.winner is not None and overtime:
        assert overtime <= options.overtime_shots
    if shootout:
        assert overtime == options.overtime_shots
        assert state.shootout_shots[0] == state.shootout_shots[1] >= options.shootout_shots
        assert shootout == sum(state.shootout_shots)


@SETTINGS
@given(games)
def test_hockey_fold_refolding_the_events_gives_an_equal_state(game: Game) -> None:
    assert fold(rules, game.events) == game.state
    decoder = msgspec.json.Decoder(list[Event])
    decoded = decoder.decode(msgspec.json.encode(game.events))
    assert decoded == game.events
    assert fold(rules, decoded) == game.state


@settings(max_examples=10, deadline=None)
@given(games)
def test_hockey_audit_decide_with_recorded_draws_gives_the_same_events(game: Game) -> None:
    for before, command, used, events in game.turns:
        recorded = RecordedDraws(used)
        assert rules.decide(before, command, recorded) == events
        assert recorded.used == used


@settings(max_examples=5, deadline=None)
@given(games)
def test_hockey_audit_decide_is_restartable_one_draw_at_a_time(game: Game) -> None:
    for before, command, used, events in game.turns[:200]:
        for known in range(len(used)):
            try:
                rules.decide(before, command, RecordedDraws(used[:known]))
            except DrawsExhausted as needed:
                assert needed.request == used[known].request
            else:
                raise AssertionError("decide finished without a draw it needed")
        assert rules.decide(before, command, RecordedDraws(used)) == events
