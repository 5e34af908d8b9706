"""A streaming replica of an embedded PostgreSQL: on first start a base backup of the primary (``pg_basebackup -R``:
the standby's settings and how to reach the primary come with it), then a hot standby that follows the primary's
WAL and answers reads, on a port of its own. Roles and passwords are the primary's (they are data)."""

from __future__ import annotations

from pathlib import Path

from shared.infra.embedded_postgres import EmbeddedPostgres


class EmbeddedReplica(EmbeddedPostgres):
    """``password``: the primary's superuser's (the base backup connects as it, and the standby keeps it)."""

    name = "postgresql-replica"

    def __init__(self, data_dir: Path, *, primary_port: int, password: str, durable: bool = False) -> None:
        super().__init__(data_dir, durable=durable, password=password)
        self.primary_port = primary_port

    def _make_cluster(self, pgdata: Path) -> None:
        self._run("pg_basebackup", "--host=127.0.0.1", f"--port={self.primary_port}", "--username=postgres",
                  f"--pgdata={pgdata}", "--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast",
                  "--no-password", env={"PGPASSWORD": self.password})

    def _set_password(self, sockets: Path) -> None:
        """A standby is read-only: its superuser's password is the primary's, replicated."""
