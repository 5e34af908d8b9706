"""What each manager and a spectator may see."""

from __future__ import annotations

import msgspec

from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from tests.unit.phantoms.helpers import ANCHOR, CROWN, STAR, act, season


def test_poti_view_manager_sees_own_hand_only() -> None:
    s = season([CROWN, ANCHOR, STAR])
    mine = rules.view(s, 0)
    assert [c.id for c in mine.hand] == CROWN
    text = msgspec.json.encode(mine).decode()
    assert not any(c in text for c in ANCHOR + STAR)
    assert [m.players for m in mine.managers] == [6, 6, 6]


def test_poti_view_face_down_choice_only_for_its_manager() -> None:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1), cmd.ChooseCard(seat=0, card="crown-f1"))
    assert rules.view(s, 0).choice == "crown-f1"
    other = rules.view(s, 1)
    assert other.choice is None and other.game is not None and other.game.ready == (True, False)
    assert "crown-f1" not in msgspec.json.encode(other).decode()


def test_poti_view_spectator_sees_only_public_facts() -> None:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1), cmd.ChooseCard(seat=0, card="crown-f1"),
               cmd.ChooseCard(seat=1, card="anchor-f3"))
    public = rules.view(s, None)
    assert public.hand == () and public.viewer is None and public.choice is None
    assert public.game is not None and public.game.score == (1, 0)
    assert public.game.history[0].cards == ("crown-f1", "anchor-f3")  # revealed cards are public
    text = msgspec.json.encode(public).decode()
    assert not any(c in text for c in ["crown-f2", "crown-g1", "anchor-f1", "anchor-g1"])
    assert public.pile_sizes == (31 - 6, 23 - 4, 12 - 2)


def test_phantoms_visible_to_private_and_public_events() -> None:
    assert ev.visible_to(ev.PilesShuffled(forwards=(), defense=(), goalies=())) == frozenset()
    assert ev.visible_to(ev.CardChosen(seat=2, card="x")) == frozenset({2})
    assert ev.visible_to(ev.CardLaidDown(seat=2)) is None
    assert ev.visible_to(ev.ReplacementDrawn(seat=1, injured="a", card="b")) == frozenset({1})
    assert ev.visible_to(ev.RoundScored(block=0, round=1, home_card="a", away_card="b", home_value=1,
                                        away_value=2, goal=None, injured=())) is None
