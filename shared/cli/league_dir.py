"""Which league a ``league`` command means, from any folder: ``--league-dir``, else ``LEAGUE_DIR``, else the
``.data`` of this folder or of the nearest folder above it that has a running league, else the league that
``league up`` last announced for this user (``$XDG_STATE_HOME/phantom-league/running``, by default under
``~/.local/state``). ``league up`` itself starts where it is told, or in ``./.data``. Settings in the environment
(``DATABASE_URL``, ``NATS_URL``, ``GATEWAY_URL``) still win over the folder's ``league.env``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from shared.cli.connection import ENV_FILE

DEFAULT = ".data"
POINTER = "running"


def state_dir(environ: Mapping[str, str]) -> Path:
    base = environ.get("XDG_STATE_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".local" / "state")
    return Path(base) / "phantom-league"


def league_dir(given: Path | None, *, starting: bool, environ: Mapping[str, str] | None = None,
               cwd: Path | None = None) -> Path:
    environ = os.environ if environ is None else environ
    cwd = Path.cwd() if cwd is None else cwd
    if given is not None:
        return given
    if named := environ.get("LEAGUE_DIR"):
        return Path(named)
    if starting:
        return cwd / DEFAULT
    for folder in (cwd, *cwd.parents):
        if (folder / DEFAULT / ENV_FILE).exists():
            return folder / DEFAULT
    pointer = state_dir(environ) / POINTER
    if pointer.exists():
        announced = Path(pointer.read_text().strip())
        if (announced / ENV_FILE).exists():
            return announced
    return cwd / DEFAULT


def announce(data_dir: Path, environ: Mapping[str, str] | None = None) -> None:
    """Tell later ``league`` commands, from any folder, where the running league is."""
    pointer = state_dir(os.environ if environ is None else environ) / POINTER
    try:
        pointer.parent.mkdir(parents=True, exist_ok=True)
        pointer.write_text(f"{data_dir.resolve()}\n")
    except OSError:
        pass  # a home folder we may not write: the league still runs, found by LEAGUE_DIR or from its folder


def withdraw(data_dir: Path, environ: Mapping[str, str] | None = None) -> None:
    pointer = state_dir(os.environ if environ is None else environ) / POINTER
    try:
        if pointer.read_text().strip() == str(data_dir.resolve()):
            pointer.unlink()
    except OSError:
        pass
