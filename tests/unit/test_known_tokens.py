from __future__ import annotations

import time

from services.gateway.auth import KnownTokens


def test_a_known_token_is_kept_for_its_seconds_and_the_oldest_goes_first() -> None:
    known = KnownTokens(seconds=0.2, most=2)
    known.put(b"a", "player-a")
    known.put(b"b", "player-b")
    assert known.get(b"a") == "player-a"  # now the most recently used
    known.put(b"c", "player-c")
    assert (known.get(b"a"), known.get(b"b"), known.get(b"c")) == ("player-a", None, "player-c")
    time.sleep(0.25)
    assert known.get(b"a") is None and known.get(b"c") is None
