"""``league rebuild <projection>|all``: rebuild standings projections from position zero into fresh tables, check
them row by row against the serving ones at the same place in the log, and swap them in atomically."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from shared.cli.connection import open_store

BAR_WIDTH = 30


class ProgressBar:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.shown < 0.1 and done < total:
            return
        self.shown = now
        share = done / total if total else 1.0
        filled = int(share * BAR_WIDTH)
        rate = done / max(now - self.started, 1e-9)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {share:4.0%} {done}/{total} events"
                         f" {rate:,.0f} ev/s")
        sys.stderr.flush()


async def rebuild_command(data_dir: Path, target: str, *, swap: bool = True) -> int:
    from services.standings.projections import PROJECTIONS
    from services.standings.rebuild import RebuildMismatch, rebuild

    if target != "all" and target not in PROJECTIONS:
        print(f"league: no projection {target!r}; choose one of {', '.join(PROJECTIONS)} or all", file=sys.stderr)
        return 2
    store = await open_store(data_dir, login="standings")
    try:
        report = await rebuild(store, target, progress=ProgressBar(), swap=swap)
    except RebuildMismatch as error:
        print(f"\nleague: {error}", file=sys.stderr)
        return 1
    finally:
        await store.pool.close()
    sys.stderr.write("\n")
    rate = report.events / report.seconds if report.seconds else 0.0
    what = "rebuilt and swapped in" if report.swapped else "rebuilt and compared (not swapped)"
    generations = ", ".join(f"{name} -> g{gen}" for name, gen in report.projections.items())
    print(f"{what}: {generations}; {report.events} events in {report.seconds:.2f}s ({rate:,.0f} events/s);"
          f" equal to the live projection row by row: {report.equal}")
    if report.quarantined:
        print(f"quarantined (unreadable events; left out from there on, see /v1/quarantine): "
              f"{', '.join(report.quarantined)}")
    return 0 if report.equal or (report.swapped and report.quarantined) else 1
