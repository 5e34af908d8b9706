from __future__ import annotations

import pytest

from shared.games.draws import DiceRequest, DrawsExhausted, RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import ChoosePlay, KeepPowerChip, Roll, UsePowerChip
from shared.games.hockeydice.events import (
    FreeRerolled,
    PlayChosen,
    PuckMoved,
    RollWon,
    ShotCounted,
    ShotReason,
    ShotRolled,
)
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.state import Phase

from .helpers import CHECK, GOALIE_MASK, PUCK, REF, STICK, act, contest, dice, of_type, start

WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)
FOUR_STICKS = (STICK,) * 4 + (PUCK, CHECK)
FOUR_PUCKS = (PUCK,) * 4 + (STICK, CHECK)
SIX_STICKS = (STICK,) * 6
MISS = (PUCK,) * 6


@pytest.mark.parametrize("puck", [2, 3])
def test_hockey_chart_offense_stick_advance_or_shoot(puck: int) -> None:
    _, waiting = contest(start(puck=puck), FOUR_STICKS, WEAK)
    assert set(rules.legal_commands(waiting, 0)) == {
        ChoosePlay(seat=0, play=Play.ADVANCE), ChoosePlay(seat=0, play=Play.SHOOT)}
    _, advanced = act(waiting, ChoosePlay(seat=0, play=Play.ADVANCE))
    assert advanced.puck == puck + 1
    events, _ = act(waiting, ChoosePlay(seat=0, play=Play.SHOOT), dice(*MISS), dice(GOALIE_MASK))
    assert len(of_type(events, ShotRolled)) == 1


def test_hockey_chart_offense_stick_in_the_slot_shoots() -> None:
    events, _ = contest(start(puck=-4), WEAK, FOUR_STICKS, dice(*MISS), dice(GOALIE_MASK))
    assert of_type(events, PlayChosen) == [PlayChosen(seat=1, play=Play.SHOOT)]
    assert of_type(events, ShotRolled)[0].modifier == 1


def test_hockey_shot_blue_line_no_shot_from_centre_or_neutral() -> None:
    for puck in (0, 1):
        events, after = contest(start(puck=puck), FOUR_STICKS, WEAK)
        assert of_type(events, PlayChosen) == [PlayChosen(seat=0, play=Play.ADVANCE)]
        assert of_type(events, ShotRolled) == []
        assert after.puck == puck + 1


def test_hockey_chart_defense_stick_pushes_back_one() -> None:
    events, after = contest(start(puck=3), WEAK, FOUR_STICKS)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=1, play=Play.PUSH_BACK_1)]
    assert after.puck == 2


@pytest.mark.parametrize(("puck", "seat"), [(0, 0), (3, 0), (3, 1), (-2, 1), (-2, 0)])
def test_hockey_chart_six_sticks_automatic_goal_for_offense_or_defense(puck: int, seat: int) -> None:
    home, away = (SIX_STICKS, WEAK) if seat == 0 else (WEAK, SIX_STICKS)
    events, after = contest(start(puck=puck), home, away)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=seat, goal=True, reason=ShotReason.SIX_STICKS)]
    assert after.score[seat] == 1 and after.score[1 - seat] == 0
    assert after.shots == 1 and after.shots_by[seat] == 1
    assert after.puck == 0


def test_hockey_chart_offense_puck_saucer_pass_two_sections() -> None:
    events, after = contest(start(puck=1), FOUR_PUCKS, WEAK)
    assert of_type(events, PuckMoved) == [PuckMoved(seat=0, to=3)]
    assert of_type(events, ShotRolled) == []
    assert after.puck == 3


def test_hockey_chart_offense_puck_landing_in_the_slot_is_not_a_shot() -> None:
    events, after = contest(start(puck=2), FOUR_PUCKS, WEAK)
    assert of_type(events, ShotRolled) == []
    assert after.puck == 4


@pytest.mark.parametrize("puck", [3, 4])
def test_hockey_chart_offense_puck_reaching_the_goal_shoots_from_the_slot(puck: int) -> None:
    events, after = contest(start(puck=puck), FOUR_PUCKS, WEAK, dice(*MISS), dice(GOALIE_MASK))
    assert of_type(events, PuckMoved) == [PuckMoved(seat=0, to=4)]
    shot = of_type(events, ShotRolled)
    assert len(shot) == 1 and shot[0].modifier == 1
    assert after.shots == 1 and after.puck == 0


def test_hockey_chart_defense_puck_pushes_back_two() -> None:
    events, after = contest(start(puck=-4), FOUR_PUCKS, WEAK)
    assert of_type(events, PlayChosen) == [PlayChosen(seat=0, play=Play.PUSH_BACK_2)]
    assert after.puck == -2


def test_hockey_chart_free_reroll_rerolls_only_check_dice() -> None:
    checks = (CHECK, STICK, CHECK, CHECK, PUCK, CHECK)
    with pytest.raises(DrawsExhausted) as asked:
        rules.decide(start(), _roll(), RecordedDraws([dice(*checks), dice(*WEAK)]))
    assert asked.value.request == DiceRequest(6, 4)
    events, after = contest(start(), checks, WEAK, dice(PUCK, PUCK, STICK, PUCK))
    assert of_type(events, FreeRerolled)[0].dice == (0, 2, 3, 5)
    assert after.play_faces.count("puck") == 4
    assert of_type(events, PlayChosen)[-1] == PlayChosen(seat=0, play=Play.SAUCER_PASS)
    assert after.puck == 2


def test_hockey_chart_free_reroll_ignores_the_opponent_roll() -> None:
    """The new roll's play applies even though it is weaker than the opponent's roll."""
    checks = (CHECK,) * 5 + (STICK,)
    strong_away = (PUCK,) * 4 + (STICK, REF)
    events, after = contest(start(), checks, strong_away, dice(REF, REF, REF, PUCK, CHECK))
    assert of_type(events, PlayChosen)[-1] == PlayChosen(seat=0, play=Play.PENALTY)
    assert after.penalties == (0, 1)


def test_hockey_chart_free_reroll_check_still_most_frequent_does_nothing() -> None:
    checks = (CHECK,) * 4 + (STICK, PUCK)
    events, after = contest(start(puck=2), checks, WEAK, dice(CHECK, CHECK, CHECK, REF))
    assert len(of_type(events, FreeRerolled)) == 1
    assert of_type(events, PuckMoved) == []
    assert after.puck == 2 and after.phase is Phase.ROLL and after.penalties == (0, 0)


def test_hockey_chart_free_reroll_six_sticks_is_a_goal() -> None:
    events, after = contest(start(), (CHECK,) * 4 + (STICK, STICK), WEAK, dice(STICK, STICK, STICK, STICK))
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=True, reason=ShotReason.SIX_STICKS)]
    assert after.score == (1, 0)


def test_hockey_chart_penalty_opponent_rolls_one_die_fewer() -> None:
    _, after = contest(start(), (REF,) * 4 + (STICK, PUCK), WEAK)
    assert after.penalties == (0, 1)
    with pytest.raises(DrawsExhausted) as asked:
        rules.decide(after, _roll(), RecordedDraws([dice(*WEAK)]))
    assert asked.value.request == DiceRequest(6, 5)


def test_hockey_penalty_stack_never_below_one_die() -> None:
    state = start()
    for _ in range(7):
        away_dice = max(1, 6 - state.penalties[1])
        _, state = contest(state, (REF,) * 4 + (STICK, PUCK), (STICK, PUCK, CHECK, REF, STICK, PUCK)[:away_dice])
        assert state.puck == 0
    assert state.penalties == (0, 7)
    assert rules.view(state, None).dice == (6, 1)


def test_hockey_chart_penalty_lasts_until_the_next_shot() -> None:
    state = start(puck=3, penalties=(0, 2))
    events, after = contest(state, FOUR_PUCKS, (STICK, PUCK, CHECK, REF), dice(*MISS), dice(GOALIE_MASK))
    assert len(of_type(events, ShotRolled)[0].faces) == 6
    assert after.penalties == (0, 0)


def test_hockey_chart_penalised_shooter_rolls_its_available_dice() -> None:
    state = start(puck=3, penalties=(2, 0))
    events, _ = contest(state, (PUCK,) * 3 + (STICK,), WEAK, dice(*MISS[:4]), dice(GOALIE_MASK))
    assert len(of_type(events, ShotRolled)[0].faces) == 4


def _roll() -> Roll:
    return Roll(seat=0)


@pytest.mark.parametrize(("seat", "holder", "puck"), [(0, 1, 0), (1, 0, 0), (0, 0, -3), (1, 1, 2)])
def test_hockey_chart_six_sticks_any_roll_scores_against_six_of_another_symbol(seat: int, holder: int,
                                                                               puck: int) -> None:
    home, away = (SIX_STICKS, MISS) if seat == 0 else (MISS, SIX_STICKS)
    events, after = contest(start(chip=holder, puck=puck), home, away)
    assert of_type(events, RollWon) == [RollWon(seat=seat)]  # no Power Chip question: the sticks win whoever holds it
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=seat, goal=True, reason=ShotReason.SIX_STICKS)]
    assert after.score[seat] == 1 and after.score[1 - seat] == 0 and after.chip == holder
    assert after.shots == 1 and after.puck == 0


@pytest.mark.parametrize(("holder", "use"), [(0, True), (0, False), (1, True), (1, False)])
def test_hockey_chart_six_sticks_any_roll_both_teams_is_a_tie_one_goal(holder: int, use: bool) -> None:
    _, tied = contest(start(chip=holder, puck=2), SIX_STICKS, SIX_STICKS)
    assert tied.phase is Phase.CONTEST_CHIP and rules.pending_seats(tied) == frozenset({holder})
    events, after = act(tied, UsePowerChip(seat=holder) if use else KeepPowerChip(seat=holder))
    scorer = holder if use else 1 - holder
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=scorer, goal=True, reason=ShotReason.SIX_STICKS)]
    assert after.score[scorer] == 1 and after.score[1 - scorer] == 0 and after.shots == 1
