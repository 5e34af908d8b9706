from __future__ import annotations

from shared.config import StoreSettings


class GatewaySettings(StoreSettings, kw_only=True, frozen=True):
    max_body_bytes: int = 64 * 1024
    engine_timeout: float = 10.0
    standings_url: str = ""
    """Where a browser reaches the standings service (its public /v1): the play page lists games and names from
    there. Empty: the page plays without those lists (it keeps the games it opened or joined itself)."""
