from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared.tournaments.quickplay import Banding, Waiting, band, form_tables

BANDING = Banding(base=5, widen_per_second=1, widest=100)


def ids(tables: list[tuple[Waiting, ...]]) -> list[set[str]]:
    return [{w.player_id for w in t} for t in tables]


def test_players_far_apart_wait_until_their_bands_have_widened_enough() -> None:
    queue = [Waiting(player_id="low", rating=0, since=0), Waiting(player_id="high", rating=10, since=0)]
    assert form_tables(queue, 2, now=0, banding=BANDING) == []
    assert form_tables(queue, 2, now=4.9, banding=BANDING) == []
    assert ids(form_tables(queue, 2, now=5, banding=BANDING)) == [{"low", "high"}]


def test_the_band_widens_with_waiting_time_up_to_the_widest() -> None:
    waiting = Waiting(player_id="p", rating=0, since=10)
    assert [band(waiting, now, BANDING) for now in (0, 10, 12, 1000)] == [5, 5, 7, 100]


def test_a_newcomer_with_a_narrow_band_is_not_seated_far_from_their_rating() -> None:
    queue = [Waiting(player_id="old", rating=0, since=0), Waiting(player_id="new", rating=20, since=30)]
    assert form_tables(queue, 2, now=30, banding=BANDING) == []
    assert ids(form_tables(queue, 2, now=45, banding=BANDING)) == [{"old", "new"}]


def test_the_longest_waiting_player_gets_the_closest_ratings() -> None:
    queue = [Waiting(player_id=name, rating=rating, since=since)
             for name, rating, since in (("first", 50, 0), ("near", 52, 5), ("nearer", 49, 6), ("far", 80, 1))]
    assert ids(form_tables(queue, 2, now=6, banding=BANDING)) == [{"first", "nearer"}]
    assert ids(form_tables(queue, 3, now=6, banding=BANDING)) == [{"first", "nearer", "near"}]


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(0, 60)), max_size=30), st.sampled_from([2, 3, 4]),
       st.floats(0, 120))
def test_tables_are_full_seat_nobody_twice_and_stay_within_both_bands(
    entries: list[tuple[float, float]], size: int, now: float
) -> None:
    queue = [Waiting(player_id=f"p{i}", rating=r, since=min(s, now)) for i, (r, s) in enumerate(entries)]
    tables = form_tables(queue, size, now, BANDING)
    seated = [w.player_id for t in tables for w in t]
    assert len(seated) == len(set(seated)) and all(len(t) == size for t in tables)
    for anchor, *others in tables:
        for other in others:
            assert abs(other.rating - anchor.rating) <= min(band(anchor, now, BANDING), band(other, now, BANDING))
