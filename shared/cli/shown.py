"""Events, commands and positions as short lines of text, for ``league scenario`` and ``league replay --try``."""

from __future__ import annotations

from typing import Any

import msgspec

LONGEST = 70


def line(message: Any) -> str:
    """``tag field=value ...``; long values (a whole deck, a board) are cut short."""
    fields = msgspec.to_builtins(message)
    tag = type(message).__struct_config__.tag
    parts = [tag if isinstance(tag, str) else type(message).__name__]
    for key, value in fields.items():
        if key == "type":
            continue
        text = msgspec.json.encode(value).decode() if not isinstance(value, str) else value
        parts.append(f"{key}={text if len(text) <= LONGEST else text[:LONGEST - 3] + '...'}")
    return " ".join(parts)


def facts(described: dict[str, Any], indent: str = "  ") -> list[str]:
    """A position's facts (``describe``), one a line, in the words a scenario's ``[expect.position]`` uses."""
    lines = []
    for key, value in described.items():
        if isinstance(value, dict):
            lines.append(f"{indent}{key}:")
            lines += facts(value, indent + "  ")
        else:
            lines.append(f"{indent}{key} = {msgspec.json.encode(value).decode()}")
    return lines
