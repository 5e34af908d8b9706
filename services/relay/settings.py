from __future__ import annotations

from typing import Annotated

import msgspec

from shared.config import StoreSettings


class RelaySettings(StoreSettings, kw_only=True, frozen=True):
    relay_batch: Annotated[int, msgspec.Meta(ge=1)] = 500
    """Events read from the log at once (more when the last transaction goes on: a page ends where one ends)."""
    relay_ack_timeout: float = 10.0
    """Seconds JetStream has to acknowledge a whole batch; past that the batch fails and the relay starts again
    from its stored checkpoint (re-published events are dropped by JetStream's duplicate window)."""
    relay_stall_seconds: float = 30.0
    """/healthz reports the relay stalled when events have waited this long with no batch acknowledged."""
    relay_checkpoint: str = "relay"
    """The checkpoint's name: a relay feeding another NATS (or a test's own server) keeps its own place."""
    jetstream_replicas: Annotated[int, msgspec.Meta(ge=1, le=5)] = 1
    """Copies of each event stream JetStream keeps (``EVENTS`` and the private one): 1 on a single nats-server, 3 on
    a cluster of three so that losing one server loses nothing. Set when the relay creates or updates them."""
