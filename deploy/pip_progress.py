"""``make install``'s pip, shown as progress: one line that counts the pinned packages as pip collects and installs
them, instead of pip's own output (on a slow network, dozens of "WARNING: Retrying ..." lines). Everything pip says
goes to a log file; a retry is counted on the progress line; a failure prints the log's last lines and its path.
Standard library only: it runs before anything is installed.

    python deploy/pip_progress.py LOG TOTAL -- <pip arguments>
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

COLLECTING = re.compile(r"^(?:Collecting|Requirement already satisfied:) (\S+)|^Processing (?:\S*/)?([^/\s]+)")
RETRYING = re.compile(r"WARNING: Retrying")
WARNING = re.compile(r"^WARNING: ")
TAIL = 30


class Progress:
    def __init__(self, total: int, out: IO[str]) -> None:
        self.total, self.out = total, out
        self.seen: list[str] = []
        self.retries = 0
        self.warnings = 0
        self.phase = "collecting"
        self.tty = out.isatty()
        self._last_print = 0.0

    def line(self, text: str) -> None:
        if (found := COLLECTING.match(text)) is not None:
            self.seen.append(re.split(r"[=<>!~\[ ]|-\d", found.group(1) or found.group(2), maxsplit=1)[0])
        elif RETRYING.search(text):
            self.retries += 1
        elif WARNING.match(text):
            self.warnings += 1
            return
        elif text.startswith("Installing collected packages"):
            self.phase = "installing"
        else:
            return
        self.show()

    def show(self, final: bool = False) -> None:
        now = time.monotonic()
        if not final and not self.tty and now - self._last_print < 5:
            return  # a log file or CI: a line every few seconds, not one per package
        self._last_print = now
        count = f"{min(len(self.seen), self.total)}/{self.total}" if self.total else str(len(self.seen))
        latest = f" ({self.seen[-1]})" if self.seen and self.phase == "collecting" else ""
        slow = f"; slow network: {self.retries} download retries so far" if self.retries else ""
        warned = f"; {self.warnings} pip warnings in the log" if final and self.warnings else ""
        text = f"league: {self.phase} dependencies: {count} packages{latest}{slow}{warned}"
        if self.tty:
            self.out.write("\r\033[K" + text + ("\n" if final else ""))
        else:
            self.out.write(text + "\n")
        self.out.flush()


def run(log: Path, total: int, command: list[str], out: IO[str] = sys.stdout) -> int:
    progress = Progress(total, out)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as kept, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                                 text=True, bufsize=1) as pip:
        assert pip.stdout is not None
        for text in pip.stdout:
            kept.write(text)
            progress.line(text.rstrip("\n"))
    progress.phase = "installed" if pip.returncode == 0 else "FAILED installing"
    progress.show(final=True)
    if pip.returncode != 0:
        lines = log.read_text().splitlines()
        out.write("\n".join(lines[-TAIL:]) + f"\nleague: pip failed (exit {pip.returncode}); its whole output: {log}\n")
    return pip.returncode


def main(argv: list[str]) -> int:
    log, total, separator, *pip_args = argv
    if separator != "--":
        raise SystemExit(__doc__)
    return run(Path(log), int(total), [sys.executable, "-m", "pip", *pip_args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
