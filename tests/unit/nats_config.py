"""A nats-server configuration checked by nats-server itself (``-t``: parse, check, exit), as shipped: with the
authorization block ``league secrets`` writes beside it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from shared.cli.secrets import secrets_command
from shared.infra.embedded_nats import nats_server_binary


def nats_server_accepts(config: str, folder: Path, *, auth_name: str, server_name: str) -> str:
    """nats-server's verdict on ``config`` (empty when valid), its include ``auth_name`` made by ``league
    secrets`` and ``$SERVER_NAME`` set as the deployment sets it."""
    secrets_command(folder / "secrets", "league", "")
    (folder / auth_name).write_text((folder / "secrets" / "nats-auth.conf").read_text())
    (folder / "nats.conf").write_text(config)
    done = subprocess.run([nats_server_binary(), "-c", str(folder / "nats.conf"), "-t"], capture_output=True,
                          text=True, env={**os.environ, "SERVER_NAME": server_name}, timeout=30)
    return "" if done.returncode == 0 else done.stdout + done.stderr
