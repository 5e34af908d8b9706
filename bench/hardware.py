"""What machine a benchmark ran on, printed beside every figure."""

from __future__ import annotations

import os
import platform
import statistics
from collections.abc import Sequence


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def describe() -> str:
    return (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
