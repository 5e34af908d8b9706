"""``league up`` as a person starts it in the background of a shell (SIGINT ignored, as a shell does for ``&``),
its output read as it comes, and every process it started found through /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN_SERVERS = ("DATABASE_URL", "NATS_URL", "NATS_SUBJECT_PREFIX", "LEAGUE_DIR")


class LeagueUp:
    def __init__(self, data_dir: Path, ports: dict[str, int], *, demo: bool) -> None:
        env = {k: v for k, v in os.environ.items() if k not in OWN_SERVERS}
        env |= {"LEAGUE_GATEWAY_PORT": str(ports["gateway"]), "LEAGUE_STANDINGS_PORT": str(ports["standings"]),
                "PYTHONUNBUFFERED": "1", "XDG_STATE_HOME": str(data_dir.parent / "state")}
        command = [sys.executable, "-m", "shared.cli.main", "--data-dir", str(data_dir), "up"]
        if not demo:
            command.append("--no-demo")
        self.process = subprocess.Popen(["bash", "-c", 'trap "" INT; exec "$@"', "league", *command], cwd=ROOT,
                                        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, text: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.lines):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"league up never printed {text!r}:\n{self.output}")

    def interrupt(self, timeout: float = 120) -> int:
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout)
        self._reader.join(10)
        return code

    def kill(self) -> None:
        """Whatever a failed test leaves: the league and everything under it."""
        for pid in descendants(self.process.pid) + [self.process.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(30)
        self._reader.join(10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _parents() -> dict[int, int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def descendants(pid: int) -> list[int]:
    parents = _parents()
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
