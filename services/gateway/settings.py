from __future__ import annotations

from shared.config import StoreSettings


class GatewaySettings(StoreSettings, kw_only=True, frozen=True):
    max_body_bytes: int = 64 * 1024
    engine_timeout: float = 10.0
