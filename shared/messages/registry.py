"""One registry maps stored names to Struct types and their schema versions.

A stored name is a contract: never rename it. A type whose shape changes gets a new version and an upcaster that
lifts the old payload (a dict) one version up; reading old events runs the chain of upcasters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from shared.messages import codec

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UnknownMessage(Exception):
    pass


@dataclass(frozen=True)
class MessageType:
    name: str
    version: int
    type: type[msgspec.Struct]


def message_name(cls: type[msgspec.Struct]) -> str:
    tag = cls.__struct_config__.tag
    return tag if isinstance(tag, str) else cls.__name__


class Registry:
    def __init__(self) -> None:
        self._by_name: dict[str, MessageType] = {}
        self._by_type: dict[type, MessageType] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, cls: type[msgspec.Struct], *, version: int = 1) -> type[msgspec.Struct]:
        name = message_name(cls)
        known = self._by_name.get(name)
        if known is not None and known.type is not cls:
            raise ValueError(f"message name {name!r} is already taken by {known.type.__qualname__}")
        entry = MessageType(name, version, cls)
        self._by_name[name] = entry
        self._by_type[cls] = entry
        return cls

    def register_all(self, classes: Iterable[type[msgspec.Struct]]) -> None:
        for cls in classes:
            self.register(cls)

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        def add(fn: Upcaster) -> Upcaster:
            self._upcasters[(name, from_version)] = fn
            return fn

        return add

    def entry(self, name: str) -> MessageType:
        try:
            return self._by_name[name]
        except KeyError:
            raise UnknownMessage(f"no message type is registered as {name!r}") from None

    def of(self, obj: msgspec.Struct) -> MessageType:
        try:
            return self._by_type[type(obj)]
        except KeyError:
            raise UnknownMessage(f"{type(obj).__qualname__} is not a registered message type") from None

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def encode(self, obj: msgspec.Struct) -> tuple[str, int, bytes]:
        entry = self.of(obj)
        return entry.name, entry.version, codec.encode(obj)

    def read_as(self, obj: msgspec.Struct, version: int) -> msgspec.Struct:
        """``obj`` as it reads back had it been stored at the older ``version``: through the same upcasters. The
        audit compares an old stored event with what the rules decide today seen this way, so a field that version
        did not have is the one its upcaster gives, not today's."""
        entry = self.of(obj)
        if version >= entry.version:
            return obj
        payload = codec.decode(codec.encode(obj), dict[str, Any])
        for step in range(version, entry.version):
            upcast = self._upcasters.get((entry.name, step))
            if upcast is None:
                raise UnknownMessage(f"no upcaster lifts {entry.name} from v{step} to v{step + 1}")
            payload = upcast(payload)
        return msgspec.convert(payload, entry.type)

    def decode(self, name: str, version: int, data: bytes | str) -> msgspec.Struct:
        entry = self.entry(name)
        if version == entry.version:
            return codec.decode(data, entry.type)
        if version > entry.version:
            raise UnknownMessage(f"{name} v{version} is newer than this code knows (v{entry.version})")
        payload = codec.decode(data, dict[str, Any])
        for step in range(version, entry.version):
            upcast = self._upcasters.get((name, step))
            if upcast is None:
                raise UnknownMessage(f"no upcaster lifts {name} from v{step} to v{step + 1}")
            payload = upcast(payload)
        return msgspec.convert(payload, entry.type)


registry = Registry()
"""The process-wide registry; each context registers its message types when its module is imported."""
