"""What the supervisor asks of a server process this process started (``shared.infra.supervisor.Child``)."""

from __future__ import annotations

import subprocess


class OwnedProcess:
    _process: subprocess.Popen[bytes] | None = None

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int:
        assert self._process is not None, "not started"
        return self._process.pid

    def exit_status(self) -> int | None:
        return None if self._process is None else self._process.poll()

    def kill(self) -> None:
        """SIGKILL, as a crash would leave it (no clean-up at all), and reaped: it may be started again at once."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
