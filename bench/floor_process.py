"""The floor app (``bench.floor_app``) or the hop apps (``bench.hop_app``) as child processes, started and stopped like
services."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from shared.infra.processes import ServiceProcess

POOL_SIZE = 20


@dataclass
class FloorProcess(ServiceProcess):
    module: tuple[str, ...] = field(default=("bench.floor_app",))
    """What runs: a module of ``bench`` and its arguments."""

    def start(self) -> None:
        env = {**os.environ, **self.env, "HTTP_PORT": str(self.port), "DATABASE_POOL_SIZE": str(POOL_SIZE)}
        log = open(self.log_path, "ab") if self.log_path else open(os.devnull, "wb")  # noqa: SIM115
        with log:
            self.process = subprocess.Popen([sys.executable, "-m", *self.module], env=env, stdout=log,
                                            stderr=log, cwd=Path(__file__).resolve().parents[1])
