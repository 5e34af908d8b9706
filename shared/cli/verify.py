"""``league verify`` and ``league checkpoints`` (``shared.verify``)."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from shared.bus.namespace import Namespace
from shared.cli.connection import NoLeague, connect_as, nats_subject_prefix, open_store
from shared.notary.checkpoint import LogCheckpointSigned
from shared.verify.findings import Finding
from shared.verify.run import parse_checkpoints, signed_checkpoints, verify_log


def _referee(path: Path | None) -> list[LogCheckpointSigned] | None:
    return None if path is None else parse_checkpoints(path.read_bytes())


async def verify_command(data_dir: Path, *, checkpoints: Path | None = None, public_key: str | None = None,
                         jetstream: bool = True, relay_checkpoint: str = "relay",
                         streams: list[str] | None = None) -> int:
    try:
        referee = _referee(checkpoints)
    except (OSError, msgspec.DecodeError) as error:
        print(f"league: cannot read the checkpoints in {checkpoints}: {error}", file=sys.stderr)
        return 2
    store = await open_store(data_dir)
    nc = None
    try:
        if jetstream:
            try:
                nc = await connect_as(data_dir, "auditor", "league-verify")
            except NoLeague as error:
                raise NoLeague(f"{error}; --no-jetstream skips that check") from error
        result = await verify_log(store, js=nc.jetstream() if nc else None, ns=Namespace(nats_subject_prefix(data_dir)),
                                  referee=referee, public_key=public_key, relay_checkpoint=relay_checkpoint,
                                  streams=streams or None)
    finally:
        await store.pool.close()
        if nc is not None:
            await nc.close()
    for finding in result.findings:
        print(finding)
    print(result)
    return 0 if not result.findings else 1


async def checkpoints_command(data_dir: Path, output: Path | None) -> int:
    store = await open_store(data_dir)
    findings: list[Finding] = []
    try:
        signed = await signed_checkpoints(store, findings)
    finally:
        await store.pool.close()
    lines = b"".join(msgspec.json.encode(c) + b"\n" for c in signed)
    if output is None:
        sys.stdout.buffer.write(lines)
    else:
        _write(output, lines)
        key = signed[-1].public_key if signed else "none yet"
        print(f"wrote {len(signed)} signed checkpoints to {output} (notary key {key}); check the log against them "
              f"any time with: league verify --checkpoints {output} --public-key {key}")
    for finding in findings:
        print(finding, file=sys.stderr)
    return 0 if not findings else 1


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
