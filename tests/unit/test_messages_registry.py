from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.messages import Registry, UnknownMessage


class CardPlayed(msgspec.Struct, frozen=True, tag="demo.CardPlayed"):
    seat: int
    card: str
    face_down: bool = False


class Untagged(msgspec.Struct, frozen=True):
    x: int


def test_registered_types_encode_with_their_name_and_version() -> None:
    registry = Registry()
    registry.register(CardPlayed, version=2)
    name, version, data = registry.encode(CardPlayed(1, "troll"))
    assert (name, version) == ("demo.CardPlayed", 2)
    assert registry.decode(name, version, data) == CardPlayed(1, "troll")
    assert registry.names() == ["demo.CardPlayed"]


def test_an_untagged_struct_is_named_after_its_class() -> None:
    registry = Registry()
    registry.register(Untagged)
    assert registry.encode(Untagged(1))[0] == "Untagged"


def test_old_versions_are_lifted_by_the_chain_of_upcasters() -> None:
    registry = Registry()
    registry.register(CardPlayed, version=3)

    @registry.upcaster("demo.CardPlayed", 1)
    def v1_to_v2(old: dict[str, Any]) -> dict[str, Any]:
        return {"type": old["type"], "seat": old["player"], "card": old["card"]}

    @registry.upcaster("demo.CardPlayed", 2)
    def v2_to_v3(old: dict[str, Any]) -> dict[str, Any]:
        return {**old, "face_down": True}

    stored_v1 = b'{"type":"demo.CardPlayed","player":2,"card":"bear"}'
    assert registry.decode("demo.CardPlayed", 1, stored_v1) == CardPlayed(2, "bear", True)
    stored_v2 = b'{"type":"demo.CardPlayed","seat":0,"card":"hydra"}'
    assert registry.decode("demo.CardPlayed", 2, stored_v2) == CardPlayed(0, "hydra", True)


def test_missing_upcasters_newer_versions_and_unknown_names_are_clear_errors() -> None:
    registry = Registry()
    registry.register(CardPlayed, version=2)
    with pytest.raises(UnknownMessage, match="no upcaster lifts demo.CardPlayed from v1"):
        registry.decode("demo.CardPlayed", 1, b"{}")
    with pytest.raises(UnknownMessage, match="newer"):
        registry.decode("demo.CardPlayed", 3, b"{}")
    with pytest.raises(UnknownMessage, match="no message type"):
        registry.decode("demo.Nope", 1, b"{}")
    with pytest.raises(UnknownMessage, match="not a registered"):
        registry.encode(Untagged(1))


def test_a_stored_name_cannot_be_taken_by_another_type() -> None:
    registry = Registry()
    registry.register(CardPlayed)

    class Impostor(msgspec.Struct, frozen=True, tag="demo.CardPlayed"):
        seat: int

    with pytest.raises(ValueError, match="already taken"):
        registry.register(Impostor)
