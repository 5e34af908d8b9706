"""The optional team rules: 11-card rosters, a game every turn, three rest after each game, forfeits."""

from __future__ import annotations

import random

import pytest

from shared.games.draws import SeededDraws
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.legal import legal_commands
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import step
from shared.games.rules import RuleViolation, fold
from tests.unit.phantoms.helpers import act, lay, of, play_rounds, team_season

CROWN_SIX = ("crown-f1", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1")
ANCHOR_SIX = ("anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", "anchor-d2", "anchor-g1")


def test_poti_team_variant_each_manager_gets_a_team_of_ten_and_a_random_mask_card() -> None:
    events = rules.new_game(Options(team_variant=True), 4, SeededDraws(random.Random(2)))
    s = fold(rules, events)
    assert s is not None
    dealt = of(events, ev.TeamDealt)
    assert len(dealt) == 4 and all(ev.visible_to(d) == frozenset({d.seat}) for d in dealt)
    assert all(len(m.cards) == 11 for m in s.managers)
    assert len({d.mask for d in dealt}) == 4 and all(s.cards[d.mask].team == "mask" for d in dealt)
    everything = [c for m in s.managers for c in m.cards] + list(s.out)
    assert sorted(everything) == sorted(s.cards)
    assert s.phase == "regular" and step(s) == ("turn", frozenset({0}))


def test_poti_team_variant_every_turn_is_a_game() -> None:
    s = team_season(["crown", "anchor"], ["mask-3", "mask-4"])
    assert {type(c) for c in legal_commands(s, 0)} == {cmd.Challenge}
    for command in (cmd.Trade(seat=0, opponent=1), cmd.Draft(seat=0, card="crown-f1")):
        with pytest.raises(RuleViolation) as e:
            act(s, command)
        assert e.value.code == "poti.team.games-only"


def test_poti_team_variant_lineup_must_be_3f_2d_1g_from_available_players() -> None:
    s = team_season(["crown", "anchor"], ["mask-3", "mask-4"])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    assert step(s) == ("lineup", frozenset({0, 1}))
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.FieldTeam(seat=0, cards=("crown-f1", "crown-f2", "crown-d3", "crown-d1", "crown-d2", "crown-g1")))
    assert e.value.code == "poti.team.lineup"
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.FieldTeam(seat=0, cards=("anchor-f1",) + CROWN_SIX[1:]))
    assert e.value.code == "poti.team.not-available"


def test_poti_team_variant_troll_and_bear_may_play_forward() -> None:
    s = team_season(["crown", "anchor"], ["mask-1", "mask-2"])  # Troll, Bear
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    with_troll = ("crown-f1", "crown-f2", "mask-1", "crown-d1", "crown-d2", "crown-g1")
    with pytest.raises(RuleViolation):
        act(s, cmd.FieldTeam(seat=0, cards=with_troll))
    with pytest.raises(RuleViolation):
        act(s, cmd.FieldTeam(seat=0, cards=("crown-f1", "crown-f2", "crown-d3", "crown-d1", "crown-d2",
                                            "crown-g1"), forwards=("crown-d3",)))
    s, events = act(s, cmd.FieldTeam(seat=0, cards=with_troll, forwards=("mask-1",)))
    assert ev.visible_to(of(events, ev.LineupFielded)[0]) == frozenset({0})
    assert s.game is not None and s.game.lineups[0] == with_troll


def first_game(s: Season) -> Season:
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, _ = act(s, cmd.FieldTeam(seat=0, cards=CROWN_SIX), cmd.FieldTeam(seat=1, cards=ANCHOR_SIX))
    return s


def test_poti_team_variant_three_of_the_six_rest_after_a_game_and_come_back_after_the_next() -> None:
    s = first_game(team_season(["crown", "anchor"], ["mask-3", "mask-4"]))
    s, _ = play_rounds(s)
    assert step(s) == ("rest", frozenset({0, 1}))
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Rest(seat=0, cards=("crown-f1", "crown-f2")))
    assert e.value.code == "poti.team.rest-three"
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Rest(seat=0, cards=("crown-f1", "crown-f2", "crown-f4")))  # crown-f4 did not play
    assert e.value.code == "poti.team.rest-pool"
    s, events = act(s, cmd.Rest(seat=0, cards=("crown-f1", "crown-d1", "crown-g1")),
                    cmd.Rest(seat=1, cards=("anchor-f1", "anchor-d1", "anchor-g1")))
    assert ev.visible_to(of(events, ev.PlayersRested)[0]) is None
    assert of(events, ev.TurnStarted) == [ev.TurnStarted(seat=1)]
    s, _ = act(s, cmd.Challenge(seat=1, opponent=0))
    available = {c.cards for c in legal_commands(s, 0) if isinstance(c, cmd.FieldTeam)}
    assert all("crown-f1" not in six and "crown-g1" not in six for six in available)
    assert all(len(set(s.managers[0].cards) - set(s.managers[0].resting)) == 8 for _ in (0,))
    s, _ = act(s, cmd.FieldTeam(seat=0, cards=("crown-f2", "crown-f3", "crown-f4", "crown-d2", "crown-d3",
                                               "crown-g2")),
               cmd.FieldTeam(seat=1, cards=("anchor-f2", "anchor-f3", "anchor-f4", "anchor-d2", "anchor-d3",
                                            "anchor-g2")))
    s, _ = play_rounds(s)
    s, _ = act(s, cmd.Rest(seat=0, cards=("crown-f2", "crown-f3", "crown-f4")))
    assert set(s.managers[0].resting) == {"crown-f2", "crown-f3", "crown-f4"}  # f1, d1, g1 are back


def test_poti_team_variant_injured_players_must_rest() -> None:
    s = team_season(["crown", "anchor"], ["mask-3", "mask-2"])  # seat 1 holds Bear
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    bear_six = ("anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", "mask-2", "anchor-g1")
    s, _ = act(s, cmd.FieldTeam(seat=0, cards=CROWN_SIX), cmd.FieldTeam(seat=1, cards=bear_six))
    s, events = lay(s, 0, 1, ["crown-f1"], ["mask-2"])
    assert of(events, ev.RoundScored)[0].injured == ("crown-f1",)
    s, _ = play_rounds(s)
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Rest(seat=0, cards=("crown-f2", "crown-f3", "crown-d1")))
    assert e.value.code == "poti.team.rest-injured"
    s, _ = act(s, cmd.Rest(seat=0, cards=("crown-f1", "crown-f3", "crown-d1")))
    assert "crown-f1" in s.managers[0].cards and "crown-f1" not in s.out  # injured rest, they do not leave


def test_poti_team_variant_forfeit_when_no_legal_six_and_both_rest_from_available() -> None:
    s = first_game(team_season(["crown", "anchor"], ["mask-3", "mask-4"]))
    s, _ = play_rounds(s)
    s, _ = act(s, cmd.Rest(seat=0, cards=("crown-f1", "crown-f2", "crown-f3")),  # only 2 forwards left
               cmd.Rest(seat=1, cards=("anchor-f1", "anchor-d1", "anchor-g1")))
    wins_before = s.managers[1].wins
    s, events = act(s, cmd.Challenge(seat=1, opponent=0))
    end = of(events, ev.GameEnded)[0]
    assert (end.forfeit, end.winner) == (True, 1) and not of(events, ev.CardsRevealed)
    assert s.managers[1].wins == wins_before + 1
    assert step(s) == ("rest", frozenset({0, 1}))
    s, _ = act(s, cmd.Rest(seat=0, cards=("crown-f4", "crown-d3", "crown-g2")))
    assert set(s.managers[0].resting) == {"crown-f4", "crown-d3", "crown-g2"}
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Rest(seat=1, cards=("anchor-f1", "anchor-f2", "anchor-f3")))  # anchor-f1 is resting
    assert e.value.code == "poti.team.rest-pool"


def test_powerplay_team_variant_allows_seven_managers() -> None:
    events = rules.new_game(Options(edition="powerplay", team_variant=True), 7, SeededDraws(random.Random(1)))
    s = fold(rules, events)
    assert s is not None
    assert all(len(m.cards) == 11 for m in s.managers) and not s.out
