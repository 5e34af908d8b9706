from __future__ import annotations

from shared.config import StoreSettings


class MatchmakingSettings(StoreSettings, kw_only=True, frozen=True):
    queue_interval: float = 1.0
    """Seconds between two looks at the quick-play queue."""
    band_base: float = 5.0
    """Rating ordinals a quick-play player accepts at once either side of their own."""
    band_widen_per_second: float = 1.0
    """How fast that band widens while they wait."""
    engine_timeout: float = 30.0
    """Seconds to wait for the engine to open a game."""
