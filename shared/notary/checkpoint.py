"""What the notary signs (DESIGN.md "Event store": the global log read in (tx, position) order).

The head of the log folds every event's hash in read order: ``head = sha256(head || event.hash)``, from 32 zero bytes
(the notary folds the stored hashes; a verifier folds the hashes the stored contents give). Each event's hash already
covers its stream's chain (its version, content and the hash before it), so the head changes when any event anywhere is
edited, removed, added or re-hashed. A checkpoint signs the head at the end of a range of the log with an Ed25519 key
only the relay holds; a referee keeps the checkpoints (``league checkpoints``) and ``league verify`` recomputes the
heads from the log and checks each one."""

from __future__ import annotations

import hashlib

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from shared.eventstore import Checkpoint, RecordedEvent, hashing
from shared.messages.registry import registry

STREAM = "notary-log"
GENESIS = bytes(32)
SIGNED_PREFIX = b"phantom-league/log-checkpoint/v1\n"
_encoder = msgspec.json.Encoder()


class LogCheckpointSigned(msgspec.Struct, frozen=True, kw_only=True, tag="notary.LogCheckpointSigned"):
    """The head of the global log after the event at (``upto_tx``, ``upto_position``), signed. The range covers the
    events after (``after_tx``, ``after_position``) up to it; ``seq`` numbers the checkpoints 1, 2, 3, ..."""

    seq: int
    after_tx: int
    after_position: int
    upto_tx: int
    upto_position: int
    events: int
    """Events in the range."""
    total: int
    """Events in the log up to ``upto`` (every range so far)."""
    prev_head: str
    """hex: the head at ``after`` (the previous checkpoint's)."""
    head: str
    """hex: the head at ``upto``."""
    public_key: str
    """hex: the Ed25519 key that signed."""
    signature: str
    """hex: Ed25519 over ``signed_bytes``."""

    @property
    def after(self) -> Checkpoint:
        return Checkpoint(self.after_tx, self.after_position)

    @property
    def upto(self) -> Checkpoint:
        return Checkpoint(self.upto_tx, self.upto_position)

    def signed_bytes(self) -> bytes:
        return SIGNED_PREFIX + msgspec.json.encode([self.seq, self.after_tx, self.after_position, self.upto_tx,
                                                    self.upto_position, self.events, self.total, self.prev_head,
                                                    self.head])

    def signed_by(self, public_key: str) -> bool:
        try:
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
            key.verify(bytes.fromhex(self.signature), self.signed_bytes())
        except (ValueError, InvalidSignature):
            return False
        return True


registry.register(LogCheckpointSigned)


def advance(head: bytes, event_hash: bytes) -> bytes:
    return hashlib.sha256(head + event_hash).digest()


def content_hash(event: RecordedEvent) -> bytes:
    """The hash the event's stored content gives (with its stored ``prev_hash``): what a verifier folds, so that an
    edit that left the stored hash alone changes the head as much as one that re-hashed the chain."""
    body = hashing.body(event.stream_id, event.event_id, event.type, event.schema_version, event.data,
                        _encoder.encode(event.metadata))
    return hashing.chain(event.prev_hash, event.version, body)


def public_key_of(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign(key: Ed25519PrivateKey, *, seq: int, after: Checkpoint, upto: Checkpoint, events: int, total: int,
         prev_head: bytes, head: bytes) -> LogCheckpointSigned:
    unsigned = LogCheckpointSigned(seq=seq, after_tx=after.tx, after_position=after.position, upto_tx=upto.tx,
                                   upto_position=upto.position, events=events, total=total, prev_head=prev_head.hex(),
                                   head=head.hex(), public_key=public_key_of(key), signature="")
    return msgspec.structs.replace(unsigned, signature=key.sign(unsigned.signed_bytes()).hex())
