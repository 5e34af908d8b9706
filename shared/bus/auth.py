"""Each NATS user's permissions, derived from the one table in ``shared/bus/namespace.py``, in the shape
nats-server's ``authorization { users = [...] }`` takes (nkey users: nats-server keeps only public keys)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from shared.bus.namespace import ACCESS, STREAMS, Namespace

ADMIN = "admin"
"""The operator's user: every subject (tests, and whoever administers the server). No service connects as it."""
JS_READ = ("$JS.API.STREAM.INFO.{s}", "$JS.API.STREAM.MSG.GET.{s}", "$JS.API.CONSUMER.CREATE.{s}",
           "$JS.API.CONSUMER.CREATE.{s}.>", "$JS.API.CONSUMER.DURABLE.CREATE.{s}.>", "$JS.API.CONSUMER.INFO.{s}.>",
           "$JS.API.CONSUMER.DELETE.{s}.>", "$JS.API.CONSUMER.MSG.NEXT.{s}.>", "$JS.ACK.{s}.>", "$JS.FC.{s}.>")
"""What reading a stream takes: its info, consumers of one's own (pull or push), acknowledgements and flow control."""
JS_MANAGE = ("$JS.API.STREAM.INFO.{s}", "$JS.API.STREAM.CREATE.{s}", "$JS.API.STREAM.UPDATE.{s}")


class SubjectRule(msgspec.Struct, frozen=True, omit_defaults=True):
    allow: list[str]
    deny: list[str] = []

    @classmethod
    def only(cls, subjects: Iterable[str]) -> SubjectRule:
        """nats-server reads an empty allow list as no limit at all: nothing allowed is said as everything denied."""
        allow = sorted(set(subjects))
        return cls(allow) if allow else cls([], [">"])


class Permissions(msgspec.Struct, frozen=True, kw_only=True):
    publish: SubjectRule
    subscribe: SubjectRule
    allow_responses: bool = False


class NatsUser(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    nkey: str
    permissions: Permissions | None = None
    """None: every subject (the admin)."""


class Authorization(msgspec.Struct, frozen=True):
    users: list[NatsUser]


def permissions_for(user: str, prefixes: Iterable[str]) -> Permissions:
    """What ``user`` may do in each namespace of ``prefixes`` (one league has one; a test run's server a few)."""
    publish: list[str] = []
    subscribe: list[str] = []
    responds = uses_jetstream = False
    for ns in map(Namespace, prefixes):
        for access in ACCESS:
            if user in access.publish:
                publish.append(ns.subject(access.pattern))
            if user in access.subscribe:
                subscribe.append(ns.subject(access.pattern))
                responds = responds or access.requests
        for stream in STREAMS:
            name = ns.stream(stream.kind)
            if user in stream.manage:
                publish += [api.format(s=name) for api in JS_MANAGE]
            if user in stream.read:
                publish += [api.format(s=name) for api in JS_READ]
            uses_jetstream = uses_jetstream or user in stream.manage | stream.read
        subscribe.append(f"{ns.inbox(user)}.>")
    if uses_jetstream:
        publish += ["$JS.API.INFO", "$JS.API.STREAM.NAMES"]  # clients find a stream by subject
    return Permissions(publish=SubjectRule.only(publish), subscribe=SubjectRule.only(subscribe),
                       allow_responses=responds)


def authorization(public_keys: dict[str, str], prefixes: Iterable[str]) -> Authorization:
    """Every user in ``public_keys`` (name -> public nkey) with its permissions; ``ADMIN`` with all."""
    prefixes = list(prefixes)
    return Authorization([NatsUser(nkey=key, permissions=None if name == ADMIN else permissions_for(name, prefixes))
                          for name, key in sorted(public_keys.items())])


def server_config(auth: Authorization) -> str:
    """The ``authorization`` block of a nats-server config file (its format reads JSON values)."""
    return f"authorization: {msgspec.json.encode(auth).decode()}\n"
