"""The seed's "Play A Game" list: one round's goals and injuries, and whole games."""

from __future__ import annotations

import pytest

from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms.deck import reference_deck
from shared.games.phantoms.scoring import goal, injuries
from shared.games.rules import RuleViolation
from tests.unit.phantoms.helpers import ANCHOR, CROWN, act, lay, of, play_game, season

POTI = {c.id: c for c in reference_deck("poti").cards}


def round_of(a: str, b: str) -> tuple[int | None, tuple[str, ...]]:
    x, y = POTI[a], POTI[b]
    return goal(x, y, x.value, y.value), tuple(c.id for c in injuries(x, y))


def test_poti_game_higher_value_scores() -> None:
    assert round_of("crown-f1", "anchor-f3") == (0, ())  # 10 against 5
    assert round_of("anchor-f3", "crown-f1") == (1, ())


def test_poti_game_equal_values_no_goal() -> None:
    assert round_of("crown-f2", "anchor-f2") == (None, ())  # 8 against 8


def test_poti_game_goalie_blocks_higher_forward() -> None:
    assert round_of("crown-g2", "anchor-f1") == (None, ())  # goalie 7 against forward 11


def test_poti_game_goalie_blocks_lower_forward() -> None:
    assert round_of("crown-g1", "anchor-f3") == (None, ())  # goalie 11 against forward 5


def test_poti_game_two_goalies_higher_scores() -> None:
    assert round_of("crown-g1", "anchor-g1") == (0, ())  # 11 against 10
    assert round_of("crown-g2", "anchor-g2") == (1, ())  # 7 against 8
    assert round_of("crown-g1", "lantern-g1") == (None, ())  # 11 against 11


def test_poti_game_bruiser_injures_opponent_who_still_scores_when_higher() -> None:
    assert round_of("mask-4", "crown-f1") == (1, ("crown-f1",))  # bruiser 3 against forward 10


def test_poti_game_bruiser_scores_when_higher_and_injures() -> None:
    assert round_of("mask-2", "crown-f3") == (0, ("crown-f3",))  # Bear 8 against forward 6


def test_poti_game_bruiser_injures_goalie_without_goal() -> None:
    assert round_of("mask-2", "crown-g2") == (None, ("crown-g2",))


def test_poti_game_two_bruisers_both_injured_higher_scores_first_replaced_first() -> None:
    assert round_of("mask-4", "mask-2") == (1, ("mask-2", "mask-4"))  # 3 against 8: 8 scores, 8 replaced first
    assert round_of("mask-1", "mask-5") == (0, ("mask-1", "mask-5"))


def test_poti_game_zero_bruiser_loses_to_everything_but_injures() -> None:
    assert round_of("mask-3", "crown-f5") == (1, ("crown-f5",))


def test_poti_game_six_rounds_most_goals_wins() -> None:
    s = season([CROWN, ANCHOR])
    s, events = play_game(s, 0, 1, ["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
                          ["anchor-f3", "anchor-f2", "anchor-g1", "anchor-d2", "anchor-f1", "anchor-d1"])
    goals = [r.goal for r in of(events, ev.RoundScored)]
    # 10-5 home, 8-8, G11-G10 home, 9-6 home, 6-11 away, 5-9 away
    assert goals == [0, None, 0, 0, 1, 1]
    end = of(events, ev.GameEnded)[0]
    assert (end.home_goals, end.away_goals, end.winner) == (3, 2, 0)
    assert s.managers[0].wins == 1 and s.managers[1].wins == 0
    assert s.game is None and s.turn == 1


def test_poti_game_each_player_plays_once_per_game() -> None:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, _ = act(s, cmd.ChooseCard(seat=0, card="crown-f1"), cmd.ChooseCard(seat=1, card="anchor-f1"))
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.ChooseCard(seat=0, card="crown-f1"))
    assert e.value.code == "poti.game.not-in-hand"


def test_poti_game_choices_are_face_down_until_both_chose() -> None:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, events = act(s, cmd.ChooseCard(seat=1, card="anchor-f1"))
    assert [type(e) for e in events] == [ev.CardChosen, ev.CardLaidDown]
    assert ev.visible_to(events[0]) == frozenset({1}) and ev.visible_to(events[1]) is None
    s, events = act(s, cmd.ChooseCard(seat=0, card="crown-f1"))
    assert of(events, ev.CardsRevealed)[0].home_card == "crown-f1"


def test_poti_game_tie_goes_to_sudden_death_first_goal_wins() -> None:
    s = season([CROWN, ANCHOR])
    regulation = (["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
                  ["anchor-f3", "anchor-f2", "anchor-f1", "anchor-g1", "anchor-d2", "anchor-d1"])
    # 10-5 home, 8-8, G-F none, D9-G none, 6-6 none, 5-9 away: 1:1
    s, events = play_game(s, 0, 1, *regulation)
    assert of(events, ev.SuddenDeathStarted) == [ev.SuddenDeathStarted(block=1)]
    assert s.game is not None and s.game.block == 1 and s.game.score == (1, 1)
    s, events = lay(s, 0, 1, ["crown-f2", "crown-f1"], ["anchor-f2", "anchor-f3"])  # 8-8, then 10-5
    end = of(events, ev.GameEnded)[0]
    assert (end.home_goals, end.away_goals, end.winner, end.sudden_deaths) == (2, 1, 0, 1)
    assert len(of(events, ev.RoundScored)) == 2


TIE = (["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
       ["anchor-f3", "anchor-f2", "anchor-f1", "anchor-g1", "anchor-d2", "anchor-d1"])
# 8-8, 9-9, G-F11, F10-G, 6-6, 5-5: no goal at all
GOALLESS = (["crown-f2", "crown-d1", "crown-g1", "crown-f1", "crown-f3", "crown-d2"],
            ["anchor-f2", "anchor-d1", "anchor-f1", "anchor-g1", "anchor-d2", "anchor-f3"])


def test_poti_game_sudden_death_of_six_rounds_without_goal_starts_another() -> None:
    s, _ = play_game(season([CROWN, ANCHOR]), 0, 1, *TIE)
    s, events = lay(s, 0, 1, *GOALLESS)
    assert [r.goal for r in of(events, ev.RoundScored)] == [None] * 6
    assert of(events, ev.SuddenDeathStarted) == [ev.SuddenDeathStarted(block=2)]
    s, events = lay(s, 0, 1, ["crown-d2"], ["anchor-d1"])  # 5 against 9
    end = of(events, ev.GameEnded)[0]
    assert (end.winner, end.home_goals, end.away_goals, end.sudden_deaths) == (1, 1, 2, 2)
    assert s.managers[1].wins == 1
