"""The end of the regular season (all four methods), tie-breakers, the championship series and the all-teams
playoff."""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.emitter import Emitter, settle
from shared.games.phantoms.postseason import advance
from shared.games.phantoms.state import Result, Season
from shared.games.rules import RuleViolation
from tests.unit.phantoms.helpers import (
    ANCHOR,
    CROWN,
    DWARF,
    STAR,
    act,
    finish_game,
    of,
    play_game,
    season,
    with_wins,
)

LANTERN = ["lantern-f1", "lantern-f2", "lantern-f3", "lantern-d1", "lantern-d2", "lantern-g1"]
WHEEL = ["wheel-f1", "wheel-f2", "wheel-f3", "wheel-d1", "wheel-d2", "wheel-g1"]
CREATURE = ["creature-f1", "creature-f2", "creature-f4", "creature-d1", "creature-d2", "creature-g1"]
MONSTER = ["monster-f2", "monster-f3", "monster-f4", "monster-d1", "monster-d2", "monster-g1"]  # Power Play
TEAMS = [CROWN, ANCHOR, STAR, DWARF, LANTERN, CREATURE]


def ended(wins: list[int], goals: list[int] | None = None, **options: object) -> tuple[Season, list[ev.Event]]:
    """A regular season whose last turn just finished with these standings; let it settle."""
    powerplay = options.get("edition") == "powerplay"
    teams = [WHEEL if t is DWARF and powerplay else t for t in TEAMS] + ([MONSTER] if powerplay else [])
    s = season(teams[: len(wins)], None, **options)
    s = replace(with_wins(s, wins, goals), turn_done=True)
    out = Emitter(s)
    settle(out)
    return out.season, out.events


def play_out(s: Season) -> tuple[Season, list[ev.Event]]:
    out: list[ev.Event] = []
    for seed in range(200):
        if s.phase == "over":
            break
        s, more = finish_game(s, seed)
        out += more
    assert s.phase == "over"
    return s, out


def test_poti_season_continues_below_nine_wins() -> None:
    s, events = ended([8, 7, 3, 2])
    assert of(events, ev.TurnStarted) == [ev.TurnStarted(seat=1)] and s.phase == "regular"


def test_poti_season_end_nine_wins_series_of_seven_against_second() -> None:
    s, events = ended([9, 5, 3, 2])
    assert of(events, ev.SeasonEnded)[0].leader == 0
    gone = of(events, ev.ManagersEliminated)[0]
    assert gone.seats == (2, 3) and set(gone.cards) == set(STAR + DWARF)
    assert set(gone.cards) <= set(s.out) and not set(gone.cards) & set(s.piles[0] + s.piles[1] + s.piles[2])
    stage = of(events, ev.StageStarted)[0]
    assert (stage.purpose, stage.pairs, stage.wins_needed) == ("final", ((0, 1),), 4)
    s, events = play_out(s)
    games = of(events, ev.GameEnded)
    wins = Counter(g.winner for g in games)
    assert 4 <= len(games) <= 7 and max(wins.values()) == 4 and wins[s.champion] == 4
    assert [g.home for g in games] == [0, 1, 0, 1, 0, 1, 0][: len(games)]
    assert all(g.kind == "final" for g in games)


def test_poti_championship_series_has_no_trades_or_drafts() -> None:
    s, _ = ended([9, 5, 3, 2])
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Trade(seat=0, opponent=1))
    assert e.value.code == "poti.series.no-turns"


def test_poti_season_end_nine_wins_no_series_declares_winner() -> None:
    s, events = ended([9, 5, 3, 2], season_end="nine_wins_no_series")
    assert of(events, ev.ChampionDecided) == [ev.ChampionDecided(seat=0)] and s.phase == "over"
    assert not of(events, ev.GameStarted)


def test_poti_season_end_five_wins_series_of_three() -> None:
    s, events = ended([4, 3, 2, 2], season_end="five_wins_series3")
    assert not of(events, ev.SeasonEnded)
    s, events = ended([3, 5, 2, 2], season_end="five_wins_series3")
    stage = of(events, ev.StageStarted)[0]
    assert (stage.pairs, stage.wins_needed) == (((1, 0),), 2)
    s, events = play_out(s)
    games = of(events, ev.GameEnded)
    assert 2 <= len(games) <= 3 and Counter(g.winner for g in games)[s.champion] == 2


def test_poti_tie_for_second_between_two_is_a_one_game_tiebreaker() -> None:
    s, events = ended([9, 5, 5, 2], goals=[0, 10, 12, 0])
    assert of(events, ev.ManagersEliminated)[0].seats == (3,)
    stage = of(events, ev.StageStarted)[0]
    assert (stage.purpose, stage.mode, stage.pairs) == ("second", "one_game", ((2, 1),))
    s, events = finish_game(s)
    tiebreak = of(events, ev.GameEnded)[0]
    assert tiebreak.kind == "tiebreak"
    loser = 1 if tiebreak.winner == 2 else 2
    assert of(events, ev.ManagersEliminated)[0].seats == (loser,)
    final = of(events, ev.StageStarted)[0]
    assert final.purpose == "final" and final.pairs == ((0, tiebreak.winner),)


def test_poti_tie_for_second_between_more_is_a_round_robin() -> None:
    s, events = ended([9, 4, 4, 4])
    stage = of(events, ev.StageStarted)[0]
    assert (stage.mode, stage.pairs) == ("round_robin", ((1, 2), (1, 3), (2, 3)))
    s, events = finish_game(s)
    s, more = finish_game(s, 1)
    s, more2 = finish_game(s, 2)
    assert len(of(events + more + more2, ev.GameEnded)) == 3


def rr_done(s: Season, winners: list[tuple[int, int, int]]) -> Season:
    assert s.stage is not None
    games = tuple(Result(home=a, away=b, home_goals=1, away_goals=0, winner=w, kind="tiebreak") for a, b, w in winners)
    return replace(s, game=None, stage=replace(s.stage, games=games))


def test_poti_round_robin_winner_meets_the_leader() -> None:
    s, _ = ended([9, 4, 4, 4])
    out = advance(rr_done(s, [(1, 2, 1), (1, 3, 1), (2, 3, 2)]))
    assert out[0] == ev.ManagersEliminated(seats=(2, 3), cards=tuple(STAR + DWARF))
    assert isinstance(out[1], ev.StageStarted) and out[1].pairs == ((0, 1),) and out[1].purpose == "final"


def test_poti_round_robin_all_level_plays_another_round_robin() -> None:
    s, _ = ended([9, 4, 4, 4])
    out = advance(rr_done(s, [(1, 2, 1), (1, 3, 3), (2, 3, 2)]))
    assert len(out) == 1 and isinstance(out[0], ev.StageStarted) and out[0].mode == "round_robin"


def test_poti_round_robin_two_level_at_the_top_play_one_game() -> None:
    s, _ = ended([9, 4, 4, 4, 4])
    results = [(1, 2, 1), (1, 3, 1), (1, 4, 4), (2, 3, 2), (2, 4, 4), (3, 4, 3)]  # 1: 2 wins, 4: 2 wins
    out = advance(rr_done(s, results))
    assert isinstance(out[0], ev.ManagersEliminated) and out[0].seats == (2, 3)
    assert isinstance(out[1], ev.StageStarted) and out[1].mode == "one_game" and set(out[1].pairs[0]) == {1, 4}


def knockout(goals: list[int]) -> tuple[Season, list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]]:
    """Seat 0 wins the season, the others tie for second with these goals; every knockout game is won by its home
    team. The (byes, pairs) of each round."""
    s, _ = ended([9] + [4] * (len(goals) - 1), goals=goals, edition="powerplay")
    rounds = []
    while s.stage is not None and s.stage.purpose == "second":
        assert s.stage.mode == "knockout"
        rounds.append((s.stage.byes, s.stage.pairs))
        games = tuple(Result(home=a, away=b, home_goals=1, away_goals=0, winner=a, kind="tiebreak")
                      for a, b in s.stage.pairs)
        s = replace(s, game=None, stage=replace(s.stage, games=games))
        for e in advance(s):
            s = rules.evolve(s, e)
    return s, rounds


@pytest.mark.parametrize(("goals", "rounds"), [
    ([0, 10, 30, 20], [((2,), ((3, 1),)), ((), ((2, 3),))]),
    ([0, 10, 40, 30, 20], [((2, 4), ((3, 1),)), ((2,), ((3, 4),)), ((), ((2, 3),))]),
    ([0, 50, 40, 30, 20, 10], [((1,), ((2, 5), (3, 4))), ((1,), ((2, 3),)), ((), ((1, 2),))]),
    ([0, 60, 50, 40, 30, 20, 10], [((1, 4), ((2, 6), (3, 5))), ((), ((1, 4), (2, 3))), ((), ((1, 2),))]),
], ids=["three", "four", "five", "six"])
def test_powerplay_tie_for_second_top_scorer_has_a_bye_and_second_most_plays_the_least(
        goals: list[int], rounds: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]) -> None:
    s, played = knockout(goals)
    assert played == rounds
    assert s.stage is not None and s.stage.purpose == "final" and s.stage.pairs == ((0, rounds[-1][1][0][0]),)


def test_powerplay_knockout_of_five_gives_the_top_scorer_byes_in_first_and_second_round() -> None:
    s, events = ended([9, 4, 4, 4, 4, 4], goals=[0, 50, 40, 30, 20, 10], edition="powerplay")
    stage = of(events, ev.StageStarted)[0]
    assert (stage.byes, stage.pairs) == ((1,), ((2, 5), (3, 4)))
    assert s.stage is not None
    games = (Result(home=2, away=5, home_goals=1, away_goals=0, winner=2, kind="tiebreak"),
             Result(home=3, away=4, home_goals=1, away_goals=0, winner=3, kind="tiebreak"))
    out = advance(replace(s, game=None, stage=replace(s.stage, games=games)))
    assert out[0] == ev.ManagersEliminated(seats=(4, 5), cards=tuple(LANTERN + CREATURE))
    assert isinstance(out[1], ev.StageStarted) and out[1].byes == (1,) and out[1].pairs == ((2, 3),)


def test_poti_all_teams_playoff_most_wins_against_least() -> None:
    s, events = ended([9, 6, 4, 2], season_end="all_teams_playoff")
    stage = of(events, ev.StageStarted)[0]
    assert (stage.purpose, stage.pairs, stage.wins_needed) == ("playoff", ((0, 3), (1, 2)), 4)
    assert not of(events, ev.ManagersEliminated)
    s, events = play_out(s)
    assert s.champion is not None and len(of(events, ev.StageStarted)) == 1


def test_poti_all_teams_playoff_odd_count_two_last_play_one_game_first() -> None:
    s, events = ended([9, 6, 4, 3, 2], season_end="all_teams_playoff")
    stage = of(events, ev.StageStarted)[0]
    assert (stage.mode, stage.pairs, stage.byes, stage.wins_needed) == ("qualifier", ((3, 4),), (0, 1, 2), 1)
    s, events = finish_game(s)
    qualifier = of(events, ev.GameEnded)[0]
    loser = 3 if qualifier.winner == 4 else 4
    assert of(events, ev.ManagersEliminated)[0].seats == (loser,)
    series = of(events, ev.StageStarted)[0]
    assert series.mode == "series" and series.pairs == ((0, qualifier.winner), (1, 2))


def test_poti_regular_season_ends_as_soon_as_ninth_win() -> None:
    s = with_wins(season([CROWN, ANCHOR, STAR]), [8, 3, 2])
    s, events = play_game(s, 0, 1, ["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
                          ["anchor-f3", "anchor-f2", "anchor-g1", "anchor-d2", "anchor-f1", "anchor-d1"])
    assert of(events, ev.GameEnded)[0].winner == 0
    assert of(events, ev.SeasonEnded)[0].leader == 0 and not of(events, ev.TurnStarted)
    assert of(events, ev.StageStarted)[0].pairs == ((0, 1),) and s.phase == "postseason"
