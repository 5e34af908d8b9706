from __future__ import annotations

from shared.config import StoreSettings


class RelaySettings(StoreSettings, kw_only=True, frozen=True):
    relay_batch: int = 500
    relay_ack_timeout: float = 10.0
    """Seconds JetStream has to acknowledge a whole batch; past that the batch fails and the relay starts again
    from its stored checkpoint (re-published events are dropped by JetStream's duplicate window)."""
    relay_stall_seconds: float = 30.0
    """/healthz reports the relay stalled when events have waited this long with no batch acknowledged."""
    relay_checkpoint: str = "relay"
    """The checkpoint's name: a relay feeding another NATS (or a test's own server) keeps its own place."""
