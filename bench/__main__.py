"""``make bench``: every benchmark in turn, each printing its figures and the hardware."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

BENCHMARKS = ["bench.eventstore", "bench.event_ids", "bench.rules_phantoms", "bench.rules_dice", "bench.audit",
              "bench.projections", "bench.tournament", "bench.swiss_round", "bench.hot_path", "bench.event_volume",
              "bench.jetstream", "bench.engine_replicas", "bench.hops", "bench.wake_cost"]


def main() -> int:
    failed = []
    for module in BENCHMARKS:
        if importlib.util.find_spec(module) is None:
            print(f"== {module}: not present", flush=True)
            continue
        print(f"== {module}", flush=True)
        if subprocess.run([sys.executable, "-m", module]).returncode != 0:
            failed.append(module)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
