"""Subject and stream names, and who may use each. A prefix lets several leagues, or test runs, share one NATS
server.

``ACCESS`` is the one table of the control plane's permissions: every subject family the league uses, as the
pattern nats-server matches (before the prefix), with the users that may publish to it and subscribe to it.
``shared/bus/auth.py`` derives each user's permission lists from it; a subject family missing here is refused to
every service when NATS runs with authorization. Users are the services (``SERVICES``), ``public`` (read-only
dashboards: public events only) and ``auditor`` (every published event, private ones too; publishes nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.bus.partitions import partition_of

PREFIX = re.compile(r"^[A-Za-z0-9_]*$")
SERVICES = ("relay", "rng", "engine", "matchmaking", "standings", "gateway")
READERS = ("public", "auditor")
"""Users outside the league's services: ``public`` for dashboards, ``auditor`` for referees and ``league verify``."""
WRITERS = frozenset({"engine", "rng", "matchmaking", "gateway"})
"""Services that append events, so publish the log's wake-up (the RNG: its notary's signed checkpoints too)."""


@dataclass(frozen=True)
class Access:
    """One subject family: its pattern (``*`` one token, ``>`` the rest) and who may publish and subscribe."""

    pattern: str
    publish: frozenset[str]
    subscribe: frozenset[str]
    requests: bool = False
    """Requests travel on it: its subscribers answer them (and may publish only those answers)."""


@dataclass(frozen=True)
class StreamAccess:
    """One JetStream stream (named by ``Namespace.stream``): who creates and updates it, and who reads it."""

    kind: str
    manage: frozenset[str]
    read: frozenset[str]


ACCESS: tuple[Access, ...] = (
    Access("league.engine.*.command", frozenset({"gateway", "matchmaking"}), frozenset({"engine"}), requests=True),
    Access("league.engine.*.view", frozenset({"gateway"}), frozenset({"engine"}), requests=True),
    Access("league.engine.*.legal", frozenset({"gateway"}), frozenset({"engine"}), requests=True),
    Access("league.engine.*.abandon", frozenset({"admin"}), frozenset({"engine"}), requests=True),
    # asked by an organiser (``league abandon``, ``league up`` ending an interrupted demo): the admin user, whose
    # permissions are every subject anyway, is named so that the table says who asks
    Access("league.changed.*", frozenset({"engine"}), frozenset({"gateway"})),
    Access("league.watching.*", frozenset({"gateway"}), frozenset({"engine"})),
    Access("league.rng.*", frozenset({"engine"}), frozenset({"rng"}), requests=True),
    Access("league.matchmaking.>", frozenset({"gateway"}), frozenset({"matchmaking"}), requests=True),
    Access("league.events.appended", WRITERS, frozenset(SERVICES)),
    Access("league.tokens.revoked", frozenset({"gateway"}), frozenset({"gateway"})),
    Access("events.>", frozenset({"relay"}), frozenset({"public", "auditor"})),
    Access("private.>", frozenset({"relay"}), frozenset({"auditor"})),
)
"""Subjects under the prefix. Replies travel on each user's own inbox (``Namespace.inbox``), which only it may
read; a service that answers requests may answer only the requests it received (nats-server's allow_responses)."""

STREAMS: tuple[StreamAccess, ...] = (
    StreamAccess("events", frozenset({"relay"}), frozenset({"public", "auditor"})),
    StreamAccess("private", frozenset({"relay"}), frozenset({"auditor"})),
)
"""JetStream's copies of the log: public events (``events.>``) and private ones (``private.>``), apart, so that a
reader of the public stream cannot ask JetStream for a private event either."""


@dataclass(frozen=True)
class Namespace:
    prefix: str = ""

    def __post_init__(self) -> None:
        if not PREFIX.match(self.prefix):
            raise ValueError(f"NATS subject prefix {self.prefix!r} may hold only letters, digits and _")

    def subject(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def command(self, service: str, verb: str) -> str:
        return self.subject(f"league.{service}.{verb}")

    def engine_partition(self, partition: int, verb: str) -> str:
        """What the owner of an engine partition answers: ``league.engine.p<partition>.<verb>``."""
        return self.command("engine", f"p{partition}.{verb}")

    def engine(self, game_id: str, verb: str) -> str:
        """Where a request about ``game_id`` goes: its partition's subject."""
        return self.engine_partition(partition_of(game_id), verb)

    def game_changed(self, game_id: str) -> str:
        """The owner's push of a game's new views (every seat's private view), once per change: gateways only."""
        return self.subject(f"league.changed.{game_id}")

    def game_watched(self, game_id: str) -> str:
        """A gateway's notice to every engine replica, before a socket waits for the game's changes: publish them
        (``Games.watch``). Core NATS, no payload."""
        return self.subject(f"league.watching.{game_id}")

    @property
    def games_watched(self) -> str:
        return self.subject("league.watching.*")

    def event_subject(self, category: str, stream_id: str) -> str:
        """A public event (no visibility in its metadata), on the stream dashboards read."""
        return self.subject(f"events.{category}.{stream_id}")

    def private_event_subject(self, category: str, stream_id: str) -> str:
        """An event visible only to some seats (or none until the game ends), on the auditors' stream."""
        return self.subject(f"private.{category}.{stream_id}")

    @property
    def events_appended(self) -> str:
        """Core NATS, no payload: a writer committed events; readers of the log look again (the log is the data)."""
        return self.subject("league.events.appended")

    @property
    def tokens_revoked(self) -> str:
        """A gateway tells the others a player's token stopped being good (rotated or revoked)."""
        return self.subject("league.tokens.revoked")

    @property
    def all_events(self) -> str:
        return self.subject("events.>")

    @property
    def all_private_events(self) -> str:
        return self.subject("private.>")

    @property
    def events_stream(self) -> str:
        return f"EVENTS_{self.prefix}" if self.prefix else "EVENTS"

    @property
    def private_events_stream(self) -> str:
        return f"PRIVATE_EVENTS_{self.prefix}" if self.prefix else "PRIVATE_EVENTS"

    def stream(self, kind: str) -> str:
        return {"events": self.events_stream, "private": self.private_events_stream}[kind]

    def inbox(self, user: str) -> str:
        """The prefix of ``user``'s reply subjects: only that user may subscribe under it."""
        return f"_INBOX.{self.prefix}.{user}" if self.prefix else f"_INBOX.{user}"
