from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from shared.config import StoreSettings


class RelaySettings(StoreSettings, kw_only=True, frozen=True):
    PRODUCTION_REQUIRED: ClassVar[tuple[str, ...]] = ("notary_key",)

    relay_batch: int = 500
    relay_ack_timeout: float = 10.0
    """Seconds JetStream has to acknowledge a whole batch; past that the batch fails and the relay starts again
    from its stored checkpoint (re-published events are dropped by JetStream's duplicate window)."""
    relay_stall_seconds: float = 30.0
    """/healthz reports the relay stalled when events have waited this long with no batch acknowledged."""
    relay_checkpoint: str = "relay"
    """The checkpoint's name: a relay feeding another NATS (or a test's own server) keeps its own place."""
    notary_key: str = ""
    """base64 of 32 bytes: the Ed25519 key that signs the log's checkpoints (``services/relay/notary.py``). Outside
    production a key file under DATA_DIR is used."""
    data_dir: str = ".data"
    notary_events: Annotated[int, msgspec.Meta(ge=1)] = 10_000
    """A checkpoint at least every this many events..."""
    notary_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """...or this long after the last one, when the log moved."""
