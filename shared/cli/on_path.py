"""Every hint the league prints names the command ``league``; when that name does not reach this installation
from the user's PATH, ``league up`` says once how to make it so."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def say_where_league_is() -> None:
    here = Path(sys.executable).parent
    found = shutil.which("league")
    if found is not None and Path(found).parent.resolve() == here.resolve():
        return
    print(f"  `league`   : {here / 'league'}; to type `league` in any folder:"
          f" export PATH=\"{here}{os.pathsep}$PATH\"", flush=True)
