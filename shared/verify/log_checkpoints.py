"""The notary's signed checkpoints (``shared.notary.checkpoint``) against the log: each range's head recomputed
from the range's own starting head, so that only the ranges that changed are named."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.eventstore import RecordedEvent
from shared.notary.checkpoint import LogCheckpointSigned, advance, content_hash
from shared.verify.findings import Finding


def check_signatures(signed: list[LogCheckpointSigned], public_key: str | None, findings: list[Finding]) -> str | None:
    """Each signed by the pinned key (else by the first checkpoint's key), numbered 1, 2, 3, ... and each range
    starting where the one before ended. Returns the key."""
    key = public_key or (signed[0].public_key if signed else None)
    previous: LogCheckpointSigned | None = None
    for checkpoint in signed:
        where = f"log checkpoint #{checkpoint.seq}"
        if key is None or not checkpoint.signed_by(key):
            findings.append(Finding(check=f"{where} is signed by the notary's key {key}",
                                    found=f"its signature does not verify (it names key {checkpoint.public_key})"))
        expected_seq = previous.seq + 1 if previous else 1
        if checkpoint.seq != expected_seq:
            findings.append(Finding(check="the checkpoints are numbered 1, 2, 3, ...",
                                    found=f"#{checkpoint.seq} where #{expected_seq} was expected: one is missing"))
        elif previous and (checkpoint.after, checkpoint.prev_head, checkpoint.total - checkpoint.events) != (
                previous.upto, previous.head, previous.total):
            findings.append(Finding(check=f"{where} starts where #{previous.seq} ended",
                                    found=f"it starts after {checkpoint.after} with head {checkpoint.prev_head}"))
        previous = checkpoint
    return key


@dataclass
class RangeCheck:
    """Fed the log in read order (``see``), then ``finish``."""

    signed: list[LogCheckpointSigned]
    findings: list[Finding] = field(default_factory=list)
    checked: int = 0
    _next: int = 0
    _head: bytes = b""
    _count: int = 0

    def __post_init__(self) -> None:
        self._start()

    def _start(self) -> None:
        if self._next < len(self.signed):
            self._head, self._count = bytes.fromhex(self.signed[self._next].prev_head), 0

    def _close(self) -> None:
        checkpoint = self.signed[self._next]
        if (self._head.hex(), self._count) != (checkpoint.head, checkpoint.events):
            self.findings.append(Finding(
                check=f"log checkpoint #{checkpoint.seq} signed by the notary",
                found=f"the events after {checkpoint.after} up to {checkpoint.upto} were {checkpoint.events} with "
                      f"head {checkpoint.head}; the log now holds {self._count} with head {self._head.hex()}: an "
                      "event in this range was changed, removed or added"))
        self.checked += 1
        self._next += 1
        self._start()

    def see(self, event: RecordedEvent) -> None:
        while self._next < len(self.signed) and event.checkpoint > self.signed[self._next].upto:
            self._close()
        if self._next < len(self.signed) and event.checkpoint > self.signed[self._next].after:
            self._head = advance(self._head, content_hash(event))
            self._count += 1

    def finish(self) -> list[Finding]:
        while self._next < len(self.signed):
            self._close()
        return self.findings
