"""Properties over random bot seasons: cards conserved, legal teams, replayable folds, private views."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.lineup import is_flexible
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season
from shared.games.rules import fold
from tests.unit.phantoms.simulate import bot_season

seasons = st.builds(
    lambda edition, end, team, seats, seed, bots: (Options(edition=edition, season_end=end, team_variant=team),
                                                   seats, seed, bots),
    st.sampled_from(["poti", "powerplay"]),
    st.sampled_from(["nine_wins_series7", "nine_wins_no_series", "five_wins_series3", "all_teams_playoff"]),
    st.booleans(),
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.sampled_from([("random",), ("greedy",), ("random", "greedy")]),
)


def conserved(s: Season) -> None:
    where = [c for m in s.managers for c in m.cards] + [c for p in s.piles for c in p] + list(s.out)
    twice = [c for c, n in Counter(where).items() if n > 1]
    assert not twice, f"cards in two places: {twice}"
    assert sorted(where) == sorted(s.cards)


def legal_six(s: Season, cards: tuple[str, ...]) -> None:
    shape = Counter(s.cards[c].position for c in cards)
    flex = sum(is_flexible(s.cards[c], s.options.team_variant) for c in cards)
    assert shape["G"] == 1 and len(cards) == 6
    assert shape["F"] <= 3 and shape["D"] - flex <= 2 and shape["F"] + flex >= 3


def hidden_from(s: Season, viewer: int | None) -> set[str]:
    """The cards of other managers that ``viewer`` must not see: their hands, less what has been shown."""
    public = set(s.injuries)
    if s.game is not None:
        public |= {c for r in s.game.history for c in r.cards} | {c for c in s.game.table if c}
    return {c for other, m in enumerate(s.managers) if other != viewer for c in m.cards
            if c not in m.resting and c not in public}


def hidden_from_others(s: Season) -> None:
    for viewer in [None, *range(s.seats)]:
        seen = set(_strings(msgspec.to_builtins(rules.view(s, viewer))))
        leaked = hidden_from(s, viewer) & seen
        assert not leaked, f"viewer {viewer} sees {leaked} of another seat"


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def check(s: Season, new: list[ev.Event]) -> None:
    conserved(s)
    if any(isinstance(e, ev.CardsRevealed) for e in new) and s.game is not None:
        for lineup in s.game.lineups:
            assert lineup is not None
            legal_six(s, lineup)
    hidden_from_others(s)


@settings(max_examples=12, deadline=None)
@given(seasons)
def test_phantoms_bot_seasons_conserve_cards_field_legal_teams_and_hide_hands(case: tuple[Any, ...]) -> None:
    options, seats, seed, bots = case
    if options.team_variant:
        seats = min(seats, 6)
    state, events = bot_season(options, seats, seed, bots, check)
    assert state.champion is not None


@settings(max_examples=12, deadline=None)
@given(seasons)
def test_phantoms_folding_the_events_again_gives_an_equal_state(case: tuple[Any, ...]) -> None:
    options, seats, seed, bots = case
    state, events = bot_season(options, seats, seed, bots)
    assert fold(rules, events) == state
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[ev.Event])
    assert fold(rules, decoded) == state


def test_phantoms_every_team_has_3f_2d_1g_when_a_game_starts() -> None:
    starts = []

    def at_start(s: Season, new: list[ev.Event]) -> None:
        if any(isinstance(e, ev.GameStarted) for e in new) and s.game is not None and not s.options.team_variant:
            for seat in s.game.seats:
                cards = s.managers[seat].cards
                assert sorted(s.cards[c].position for c in cards) == ["D", "D", "F", "F", "F", "G"]
            starts.append(1)

    bot_season(Options(edition="powerplay"), 4, 7, ("random",), at_start)
    assert len(starts) > 9


def test_phantoms_audit_replays_each_command_with_its_recorded_draws() -> None:
    import random

    from shared.games.draws import RecordedDraws, SeededDraws

    rng = random.Random(11)
    opening = SeededDraws(rng)
    events = rules.new_game(Options(edition="powerplay"), 3, opening)
    assert rules.new_game(Options(edition="powerplay"), 3, RecordedDraws(opening.used)) == events
    state = fold(rules, events)
    assert state is not None
    steps = 0
    while not rules.is_over(state) and steps < 3000:
        seat = min(rules.pending_seats(state))
        command = rules.bots["random"](state, seat, rng)
        draws = SeededDraws(rng)
        new = rules.decide(state, command, draws)
        assert rules.decide(state, command, RecordedDraws(draws.used)) == new
        for e in new:
            state = rules.evolve(state, e)
        steps += 1
    assert rules.is_over(state)
    assert rules.view(state, None).scorepad.champion == state.champion
