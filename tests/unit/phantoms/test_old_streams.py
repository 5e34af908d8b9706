"""Seasons stored before the injury fix (issue 14) stay readable and auditable: their ``SeasonOpened`` v1 lifts to
the rule they were played with (injured players set aside, both editions), and the audit compares what the rules
decide today with such an event seen through the same lifting."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec
import pytest

from shared.audit.game import _compare
from shared.audit.report import Found
from shared.eventstore import Metadata, RecordedEvent
from shared.games.draws import SeededDraws
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.cards import Edition
from shared.games.phantoms.options import Options
from shared.messages.registry import registry
from shared.messages.stored import stored
from shared.scenario.positions.phantoms import build
from tests.unit.phantoms.helpers import play_game
from tests.unit.phantoms.test_injuries import TOPS, home, won_by_home
from tests.unit.phantoms.test_injuries import away as away_team


def as_stored(event: msgspec.Struct, version: int, *, drop: tuple[str, ...] = ()) -> RecordedEvent:
    new = stored(event, actor="engine")
    data = msgspec.json.decode(new.data)
    for key in drop:
        data.pop(key, None)
    return RecordedEvent(position=1, tx=1, event_id=uuid.uuid4(), stream_id="phantoms-old", version=1, type=new.type,
                         schema_version=version, data=msgspec.json.encode(data),
                         metadata=Metadata(correlation_id="c"), recorded_at=datetime.now(UTC), prev_hash=b"",
                         hash=b"")


def opening(edition: Edition) -> list[ev.Event]:
    import random

    return rules.new_game(Options(edition=edition), 2, SeededDraws(random.Random(0)))


def season_opened(edition: Edition) -> ev.SeasonOpened:
    event = opening(edition)[0]
    assert isinstance(event, ev.SeasonOpened)
    return event


def test_season_opened_is_stored_at_v2_and_records_the_editions_injury_rule() -> None:
    assert registry.entry("phantoms.SeasonOpened").version == 2
    assert season_opened("poti").injuries == "draft" and season_opened("powerplay").injuries == "out_for_season"


@pytest.mark.parametrize("edition", ["poti", "powerplay"])
def test_old_season_opened_v1_lifts_to_injured_players_out_for_the_season(edition: Edition) -> None:
    old = as_stored(opening(edition)[0], 1, drop=("injuries",))
    lifted = registry.decode(old.type, old.schema_version, old.data)
    assert isinstance(lifted, ev.SeasonOpened) and lifted.injuries == "out_for_season"
    assert rules.evolve(None, lifted).injury_rule == "out_for_season"


def test_old_poti_season_folds_and_decides_as_it_was_played() -> None:
    """Its injured players are set aside with ``ReplacementDrawn`` as the stored events say, and the rules decide the
    same events again when the audit re-runs them."""
    s = build(Options(edition="poti"), {"hands": [home("poti"), away_team("poti")], "piles": TOPS,
                                        "injuries": "out_for_season"})
    s, events = play_game(s, 0, 1, *won_by_home("poti"))
    assert [type(e) for e in events if isinstance(e, ev.ReplacementDrawn | ev.InjuredPlayerDrafted)] == [
        ev.ReplacementDrawn, ev.ReplacementDrawn]
    assert s.out == ("anchor-f3", "crown-f3")


def test_audit_compares_an_old_opening_through_its_upcaster_and_still_catches_a_changed_one() -> None:
    recomputed = opening("poti")
    old = as_stored(recomputed[0], 1, drop=("injuries",))
    state = _compare(rules, None, [recomputed[0]], [old], old)
    assert state is not None
    assert state.injury_rule == "out_for_season"
    tampered = as_stored(msgspec.structs.replace(recomputed[0], injuries="out_for_season"), 2)
    with pytest.raises(Found) as found:
        _compare(rules, None, [recomputed[0]], [tampered], tampered)
    assert found.value.discrepancy.check == "the stored event is the one the rules decide"
