"""Services as child processes: start with their environment, wait for /healthz, stop with SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from shared.infra.ports import free_port

SERVICES = ("relay", "rng", "engine", "matchmaking", "standings", "gateway")


@dataclass
class ServiceProcess:
    name: str
    env: Mapping[str, str]
    log_path: Path | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_start: int = 0
    """Where this run's lines begin in the log (it is appended to, run after run)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, **self.env, "HTTP_PORT": str(self.port)}
        log = open(self.log_path, "ab") if self.log_path else open(os.devnull, "wb")  # noqa: SIM115
        with log:
            self.log_start = log.tell()
            # A session of its own: a Ctrl-C in the terminal reaches ``league up`` alone, which stops the services
            # in order (each with SIGTERM) instead of all of them at once, mid-request.
            self.process = subprocess.Popen(
                [sys.executable, "-m", f"services.{self.name}"], env=env, stdout=log, stderr=log,
                cwd=Path(__file__).resolve().parents[2], start_new_session=True,
            )

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                raise RuntimeError(f"service {self.name} exited with code {code}; see {self.log_path}"
                                   f"{self.log_tail()}")
            if self.healthy():
                return
            time.sleep(0.1)
        raise TimeoutError(f"service {self.name} not healthy within {timeout:.0f}s; see {self.log_path}"
                           f"{self.log_tail()}")

    def log_tail(self, lines: int = 20, most: int = 16_384) -> str:
        """The end of this run's log, to quote in an error (the log may live in a directory removed after)."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        with self.log_path.open("rb") as log:
            log.seek(max(self.log_start, log.seek(0, os.SEEK_END) - most))
            tail = log.read().decode(errors="replace").splitlines()[-lines:]
        return "; its log ends:\n" + "\n".join(tail) if tail else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def exit_status(self) -> int | None:
        return None if self.process is None else self.process.poll()

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no clean-up at all, as a crash would leave it."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 30) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``: a clean stop drains NATS (5s) and closes the pool (5s) at most,
        which a loaded machine can stretch."""
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return None if process is None else process.returncode


@contextmanager
def services_running(*names: str, env: Mapping[str, str], log: Callable[[str], Path], timeout: float = 60,
                     stop_cleanly: bool = True) -> Iterator[dict[str, ServiceProcess]]:
    """The named services, each a process of its own, all healthy for the block. Whatever was started is stopped
    after it (the last started first), also when a start or the block fails; ``stop_cleanly``: a block that ended
    well then needs each to have exited 0 on SIGTERM."""
    services: dict[str, ServiceProcess] = {}
    try:
        for name in names:
            services[name] = ServiceProcess(name, env, log(name))
            services[name].start()
        for service in services.values():
            service.wait_healthy(timeout)
        yield services
    except BaseException:
        for service in reversed(services.values()):
            service.stop()
        raise
    exits = {name: service.stop() for name, service in reversed(services.items())}
    unclean = {name: code for name, code in exits.items() if code != 0}
    assert not stop_cleanly or not unclean, f"not stopped cleanly on SIGTERM: {exits}" + "".join(
        f"\n{name} (exit {code}){services[name].log_tail()}" for name, code in unclean.items())
