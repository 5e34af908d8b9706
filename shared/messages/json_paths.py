"""Where in a JSON body a decoder gave up, for an error that names the field: the first string holding bytes that are
not UTF-8, or where nesting goes deeper than a decoder can follow. Used only once decoding has failed."""

from __future__ import annotations

import codecs
from typing import Any

import msgspec

MARK = "\U0010fffd"
"""Stands in for each byte that is not UTF-8 (a private-use character a client's text will hardly hold)."""
SHOWN_DEPTH = 4
"""A path into deep nesting is shown this many levels deep, then ``…``."""


def _mark(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    return MARK, error.end


codecs.register_error("league-json-path-mark", _mark)


def _first_path(value: Any, found: Any) -> str | None:
    """The path (msgspec's style, ``$.players[1]``) of the first string or key for which ``found`` holds."""
    pending: list[tuple[str, Any]] = [("$", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            if found(item):
                return path
        elif isinstance(item, dict):
            if any(found(key) for key in item):
                return f"{path} (a key)"
            pending += reversed([(f"{path}.{key}", child) for key, child in item.items()])
        elif isinstance(item, list):
            pending += reversed([(f"{path}[{index}]", child) for index, child in enumerate(item)])
    return None


def not_utf8_at(data: bytes) -> str:
    """The path of the first text in ``data`` that is not UTF-8 (``$`` when it cannot be told)."""
    marked = data.decode("utf-8", errors="league-json-path-mark").encode()
    try:
        value = msgspec.json.decode(marked)
    except (msgspec.DecodeError, RecursionError):
        return "$"
    return _first_path(value, lambda text: MARK in text) or "$"


def nesting_at(data: bytes, limit: int) -> str:
    """The path where ``data`` nests deeper than ``limit`` arrays and objects (``$`` when it does not)."""
    stack: list[str] = []
    key = ""
    in_string = escaped = False
    start = 0
    for index, byte in enumerate(data):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # the closing quote
                in_string = False
                key = data[start:index].decode("utf-8", errors="replace")
            continue
        if byte == 0x22:
            in_string, start = True, index + 1
        elif byte in (0x7B, 0x5B):  # { [
            stack.append("{" if byte == 0x7B else "[0]")
            if len(stack) > limit:
                return _shown(stack)
        elif byte in (0x7D, 0x5D):  # } ]
            if stack:
                stack.pop()
        elif byte == 0x3A and stack and stack[-1].startswith("{"):  # the key's colon
            stack[-1] = "{" + key
        elif byte == 0x2C and stack and stack[-1].startswith("["):  # the next item
            stack[-1] = f"[{int(stack[-1][1:-1]) + 1}]"
    return "$"


def _shown(stack: list[str]) -> str:
    """``$`` and each container's current key or index, the first ``SHOWN_DEPTH`` levels; the innermost container is
    not named (its own content is what nests too deep)."""
    parts = []
    for level in stack[:-1]:
        parts.append(f".{level[1:]}" if level.startswith("{") else level)
    shown = "".join(parts[:SHOWN_DEPTH])
    return f"${shown}{'…' if len(parts) > SHOWN_DEPTH else ''}"
