"""The league's credentials as files in one folder (``.data/secrets`` for ``make run``, the test run's temporary
folder, ``/run/secrets`` in deploy), each readable by its owner only. A file once made is kept: restarting the
league keeps every credential."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def write_secret(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)


def kept_secret(path: Path, make: Callable[[], str]) -> str:
    """The secret in ``path``, made by ``make`` and written there the first time."""
    if not path.exists():
        write_secret(path, make())
    return path.read_text().strip()
