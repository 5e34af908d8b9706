"""The floor app (``bench.floor_app``) as a child process, started and stopped like a service."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from shared.infra.processes import ServiceProcess

POOL_SIZE = 20


@dataclass
class FloorProcess(ServiceProcess):
    def start(self) -> None:
        env = {**os.environ, **self.env, "HTTP_PORT": str(self.port), "DATABASE_POOL_SIZE": str(POOL_SIZE)}
        log = open(self.log_path, "ab") if self.log_path else open(os.devnull, "wb")  # noqa: SIM115
        with log:
            self.process = subprocess.Popen([sys.executable, "-m", "bench.floor_app"], env=env, stdout=log,
                                            stderr=log, cwd=Path(__file__).resolve().parents[1])
