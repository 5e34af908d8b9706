"""PostgreSQL text and jsonb cannot hold U+0000: text carrying it is refused where it comes in, naming where it is."""

from __future__ import annotations

from typing import Any

import msgspec

NUL_MESSAGE = "text may not contain the NUL character (\\u0000)"


def nul_at(value: Any) -> str | None:
    """The JSON path (msgspec's style, ``$.players[1]``) of the first string or key holding a NUL, else None.
    Iterative: a deeply nested document cannot exhaust the stack."""
    pending: list[tuple[str, Any]] = [("$", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path
        elif isinstance(item, dict):
            if any("\x00" in key for key in item if isinstance(key, str)):
                return f"{path} (a key)"
            pending += reversed([(f"{path}.{key}", child) for key, child in item.items()])
        elif isinstance(item, list | tuple):
            pending += reversed([(f"{path}[{index}]", child) for index, child in enumerate(item)])
    return None


def json_nul_at(data: bytes) -> str | None:
    """``nul_at`` of a JSON document; cheap when there is no NUL escape at all (the usual case). Malformed JSON
    gives None: the decoder that follows reports it."""
    if b"\\u0000" not in data:
        return None
    try:
        return nul_at(msgspec.json.decode(data))
    except msgspec.DecodeError:
        return None


def nul_error(path: str) -> str:
    return f"{NUL_MESSAGE} - at `{path}`"
