"""Matching what came out against a scenario's ``[expect]``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

ANY_RUN = "..."


def event_fields(event: Any) -> dict[str, Any]:
    fields: dict[str, Any] = msgspec.to_builtins(event)
    tag = type(event).__struct_config__.tag
    fields["type"] = tag if isinstance(tag, str) else type(event).__name__
    return fields


def event_matches(wanted: str | dict[str, Any], event: Any, game: str) -> bool:
    fields = event_fields(event)
    spec = {"type": wanted} if isinstance(wanted, str) else wanted
    kind = spec.get("type", "")
    if kind and fields["type"] not in (kind, f"{game}.{kind}"):
        return False
    return all(key == "type" or same(value, fields.get(key)) for key, value in spec.items())


def same(expected: Any, found: Any) -> bool:
    """Equal, where a dict need only hold the keys given and ``"..."`` in a list matches any run of items."""
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(k in found and same(v, found[k]) for k, v in expected.items())
    if isinstance(expected, list | tuple):
        return isinstance(found, list | tuple) and _list(list(expected), list(found))
    if isinstance(expected, float) or isinstance(found, float):
        return isinstance(found, int | float) and not isinstance(found, bool) and float(expected) == float(found)
    return bool(expected == found)


def _list(expected: list[Any], found: list[Any]) -> bool:
    if not expected:
        return not found
    head, rest = expected[0], expected[1:]
    if head == ANY_RUN:
        return any(_list(rest, found[i:]) for i in range(len(found) + 1))
    return bool(found) and same(head, found[0]) and _list(rest, found[1:])


def in_order(wanted: Sequence[str | dict[str, Any]], events: Sequence[Any], game: str) -> str | None:
    """None when every wanted event comes out in this order; else the first one missing."""
    i = 0
    for want in wanted:
        while i < len(events) and not event_matches(want, events[i], game):
            i += 1
        if i == len(events):
            return show(want)
        i += 1
    return None


def show(value: Any) -> str:
    if isinstance(value, str):
        return value
    return msgspec.json.encode(value).decode()


def position_failures(expected: dict[str, Any], described: dict[str, Any], prefix: str = "position") -> list[str]:
    failures = []
    for key, value in expected.items():
        where = f"{prefix}.{key}"
        if key not in described:
            failures.append(f"{where}: the position has no such fact (it has {', '.join(sorted(described))})")
        elif isinstance(value, dict) and isinstance(described[key], dict):
            failures += position_failures(value, described[key], where)
        elif not same(value, described[key]):
            failures.append(f"{where}: expected {show(value)}, found {show(described[key])}")
    return failures
