from __future__ import annotations

import pytest

from shared.games.draws import RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import ChoosePlay, Roll, Shoot
from shared.games.hockeydice.events import ContestRolled, PlayChosen, PuckMoved, RollWon
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.state import Phase
from shared.games.rules import RuleViolation

from .helpers import CHECK, PUCK, REF, STICK, act, contest, of_type, start


@pytest.mark.parametrize("seat", [0, 1])
def test_hockey_roll_simultaneous_one_throw_rolls_both_teams(seat: int) -> None:
    state = start()
    assert rules.pending_seats(state) == frozenset({0, 1})
    assert rules.legal_commands(state, seat) == [Roll(seat=seat)]
    events, _ = contest(state, (STICK,) * 4 + (PUCK, CHECK), (PUCK,) * 3 + (REF, CHECK, STICK), seat=seat)
    rolled = of_type(events, ContestRolled)[0]
    assert rolled.seat == seat
    assert len(rolled.home) == 6 and len(rolled.away) == 6


def test_hockey_roll_winner_has_most_dice_of_one_symbol_seed_example() -> None:
    """Seed: offense 4 sticks against defense 3 pucks: offense wins and advances one section."""
    state = start()
    events, after = contest(state, (STICK,) * 4 + (PUCK, CHECK), (PUCK,) * 3 + (REF, CHECK, STICK))
    assert of_type(events, RollWon) == [RollWon(seat=0)]
    assert of_type(events, PlayChosen) == [PlayChosen(seat=0, play=Play.ADVANCE)]
    assert of_type(events, PuckMoved) == [PuckMoved(seat=0, to=1)]
    assert after.phase is Phase.ROLL


def test_hockey_roll_winner_can_be_the_away_team() -> None:
    events, after = contest(start(), (STICK, STICK, PUCK, PUCK, CHECK, REF), (PUCK,) * 3 + (STICK, STICK, CHECK))
    assert of_type(events, RollWon) == [RollWon(seat=1)]
    assert after.puck == -2


def test_hockey_roll_play_is_the_most_frequent_symbol() -> None:
    events, after = contest(start(), (REF, REF, REF, STICK, PUCK, CHECK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    assert of_type(events, PlayChosen) == [PlayChosen(seat=0, play=Play.PENALTY)]
    assert after.penalties == (0, 1)


def test_hockey_roll_own_tie_the_team_chooses_its_play() -> None:
    _, waiting = contest(start(), (STICK, STICK, STICK, PUCK, PUCK, PUCK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    assert waiting.phase is Phase.PLAY
    assert rules.pending_seats(waiting) == frozenset({0})
    assert set(rules.legal_commands(waiting, 0)) == {
        ChoosePlay(seat=0, play=Play.ADVANCE), ChoosePlay(seat=0, play=Play.SAUCER_PASS)}
    assert rules.legal_commands(waiting, 1) == []
    events, after = act(waiting, ChoosePlay(seat=0, play=Play.SAUCER_PASS))
    assert events == [PlayChosen(seat=0, play=Play.SAUCER_PASS), PuckMoved(seat=0, to=2)]
    assert after.puck == 2


def test_hockey_turn_not_pending_only_the_roll_winner_chooses() -> None:
    _, waiting = contest(start(), (STICK, STICK, STICK, PUCK, PUCK, PUCK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(waiting, ChoosePlay(seat=1, play=Play.ADVANCE), RecordedDraws())
    assert rejected.value.code == "hockey.turn.not-pending"


def test_hockey_play_not_available_rejected() -> None:
    _, waiting = contest(start(), (STICK, STICK, STICK, PUCK, PUCK, PUCK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(waiting, ChoosePlay(seat=0, play=Play.PENALTY), RecordedDraws())
    assert rejected.value.code == "hockey.play.not-available"
    assert "advance" in rejected.value.message


def test_hockey_turn_wrong_command_rejected() -> None:
    state = start()
    for command in (ChoosePlay(seat=0, play=Play.ADVANCE), Shoot(seat=0)):
        with pytest.raises(RuleViolation) as rejected:
            rules.decide(state, command, RecordedDraws())
        assert rejected.value.code == "hockey.turn.wrong-command"
    _, waiting = contest(state, (STICK, STICK, STICK, PUCK, PUCK, PUCK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(waiting, Roll(seat=1), RecordedDraws())
    assert rejected.value.code == "hockey.turn.wrong-command"
