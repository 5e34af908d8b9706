"""Typed messages: every command, event and NATS payload is a msgspec Struct, named in one registry."""

from shared.messages.registry import MessageType, Registry, UnknownMessage, registry

__all__ = ["MessageType", "Registry", "UnknownMessage", "registry"]
