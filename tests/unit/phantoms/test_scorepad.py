"""The Team Scorepad projection."""

from __future__ import annotations

from shared.games.phantoms import events as ev
from shared.games.phantoms.options import Options
from shared.games.phantoms.scorepad import format_scorepad, scorepad
from tests.unit.phantoms.helpers import ANCHOR, CROWN, STAR, opened, play_game, season
from tests.unit.phantoms.simulate import bot_season

WIN_3_2 = (["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
           ["anchor-f3", "anchor-f2", "anchor-g1", "anchor-d2", "anchor-f1", "anchor-d1"])


def test_poti_scorepad_row_is_the_initiating_manager() -> None:
    events = opened([CROWN, ANCHOR, STAR])
    s = season([CROWN, ANCHOR, STAR])
    s, more = play_game(s, 0, 1, *WIN_3_2)
    pad = scorepad(events + more)
    assert pad.grid[0][1] == ("3:2",) and pad.grid[1][0] == ()
    assert pad.wins == (1, 0, 0)
    text = format_scorepad(pad, ["Karsten", "Regina", "Manfred"])
    assert "3:2" in text.splitlines()[1] and text.splitlines()[1].rstrip().endswith("X")


def test_poti_scorepad_from_public_events_matches_the_season() -> None:
    state, events = bot_season(Options(), 4, 3, ("greedy", "random"))
    public = [e for e in events if ev.visible_to(e) is None]
    pad = scorepad(public)
    assert pad == scorepad(events)
    assert pad.wins == tuple(m.wins for m in state.managers)
    assert sum(len(c) for row in pad.grid for c in row) == sum(1 for r in state.results if r.kind == "regular")
    assert pad.champion == state.champion and max(pad.wins) == 9
    for r in state.results:
        if r.kind == "regular" and not r.forfeit:
            assert f"{r.home_goals}:{r.away_goals}" in {x.rstrip("*") for x in pad.grid[r.home][r.away]}
