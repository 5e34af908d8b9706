"""Every NATS request a service answers, measured: time to the reply and how it ended (``ok`` or the
``Rejected`` code), labelled by what the subject serves (``engine.command``, ``rng.draws``) rather than the
subject itself, whose partition number or namespace would make a label per partition. Children are made once
per subject and kept, and once per code when a code is first seen."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Histogram

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class HandlerMetrics:
    """One per service (its registry)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.duration = Histogram("nats_request_duration_seconds", "NATS requests this service answered, by what "
                                  "they ask: time from receipt to the reply", ["subject"], registry=registry,
                                  buckets=BUCKETS)
        self.replies = Counter("nats_replies", "NATS replies by what was asked and how it ended (ok, or the "
                               "Rejected code)", ["subject", "code"], registry=registry)
        self._subjects: dict[str, SubjectMetrics] = {}

    def subject(self, label: str) -> SubjectMetrics:
        found = self._subjects.get(label)
        if found is None:
            found = self._subjects[label] = SubjectMetrics(self, label)
        return found


class SubjectMetrics:
    def __init__(self, metrics: HandlerMetrics, label: str) -> None:
        self._metrics = metrics
        self._label = label
        self.observe: Callable[[float], None] = metrics.duration.labels(label).observe
        self._codes: dict[str, Callable[[], None]] = {"ok": metrics.replies.labels(label, "ok").inc}

    def done(self, code: str, seconds: float) -> None:
        self.observe(seconds)
        count = self._codes.get(code)
        if count is None:
            count = self._codes[code] = self._metrics.replies.labels(self._label, code).inc
        count()
