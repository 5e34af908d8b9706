from __future__ import annotations

from typing import Annotated

import msgspec

from shared.config import StoreSettings


class GatewaySettings(StoreSettings, kw_only=True, frozen=True):
    max_body_bytes: int = 64 * 1024
    engine_timeout: float = 10.0
    token_days: Annotated[float, msgspec.Meta(gt=0, le=3650)] = 90.0
    """How long a player's token is good from when it was issued or last rotated."""
    token_recheck_seconds: Annotated[float, msgspec.Meta(gt=0, le=300)] = 5.0
    """The longest a gateway trusts a token it looked up: the bound on a revocation whose broadcast it missed."""
    standings_url: str = ""
    """Where a browser reaches the standings service (its public /v1): the play page lists games and names from
    there. Empty: the page plays without those lists (it keeps the games it opened or joined itself)."""
