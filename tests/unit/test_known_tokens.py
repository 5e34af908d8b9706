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


def test_lookups_made_together_are_not_all_made_again_together() -> None:
    known = KnownTokens(seconds=0.4, most=1000)
    for n in range(200):
        known.put(bytes([n % 256, n // 256]), f"player-{n}")
    time.sleep(0.3)
    still = sum(known.get(bytes([n % 256, n // 256])) is not None for n in range(200))
    assert 0 < still < 200, "every lookup would be made again at the same moment"
    time.sleep(0.15)
    assert all(known.get(bytes([n % 256, n // 256])) is None for n in range(200)), "trusted past its seconds"
