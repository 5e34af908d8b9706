from __future__ import annotations

import pytest

from shared.ratings import Rating, ranks_from_winners, rate


def test_winners_gain_and_losers_lose_rating() -> None:
    start = [Rating(), Rating(), Rating(), Rating()]
    after = rate(start, ranks_from_winners(4, [2]))
    assert after[2].mu > start[2].mu
    assert all(after[i].mu < start[i].mu for i in (0, 1, 3))
    assert after[0] == after[1] == after[3]
    assert all(a.sigma < s.sigma for a, s in zip(after, start, strict=True))


def test_beating_a_stronger_player_gains_more() -> None:
    upset = rate([Rating(20, 4), Rating(30, 4)], [1, 2])[0].mu - 20
    expected = rate([Rating(30, 4), Rating(20, 4)], [1, 2])[0].mu - 30
    assert upset > expected > 0


def test_ordinal_is_conservative_and_ranks_need_one_per_player() -> None:
    assert Rating(25, 8).ordinal == pytest.approx(1.0)
    with pytest.raises(ValueError):
        rate([Rating()], [1, 2])
    assert ranks_from_winners(3, []) == [2, 2, 2]
