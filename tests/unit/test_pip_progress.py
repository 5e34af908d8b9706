"""``make install`` on a slow network: one progress line and a count of retries, not pip's warnings; pip's whole
output kept in a log; a failure shows the log's tail and pip's exit status."""

from __future__ import annotations

import io
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))

from pip_progress import run  # noqa: E402

SLOW_PIP = textwrap.dedent("""
    import sys
    print("Processing /opt/pypi/files/attrs-26.1.0-py3-none-any.whl (from aiohttp==3.14.5)")
    for name in ["aiohttp==3.14.5", "asyncpg==0.32.0", "msgspec==0.22.0"]:
        print(f"WARNING: Location 'file:///opt/pypi/simple/{name}/' is ignored: it is neither a file nor a directory.")
        print(f"Collecting {name} (from -r requirements.lock)")
        for attempt in range(4):
            print(f"WARNING: Retrying (Retry(total={4 - attempt}, connect=None, read=None)) after connection broken by "
                  "'ReadTimeoutError(\\"HTTPSConnectionPool(host='files.example', port=443): Read timed out.\\")'",
                  file=sys.stderr)
        print(f"  Downloading {name.split('==')[0]}-1.0-py3-none-any.whl (1.2 MB)")
    print("Installing collected packages: aiohttp, asyncpg, msgspec")
    print("Successfully installed aiohttp asyncpg msgspec")
    sys.exit(int(sys.argv[1]))
""")


def test_a_slow_install_shows_progress_and_counts_retries_instead_of_printing_them(tmp_path: Path) -> None:
    out = io.StringIO()
    log = tmp_path / "pip.log"
    assert run(log, 4, [sys.executable, "-c", SLOW_PIP, "0"], out) == 0
    shown = out.getvalue().splitlines()
    assert not any("WARNING" in line or "Retry(" in line for line in shown), shown
    assert shown[-1] == ("league: installed dependencies: 4/4 packages; slow network: 12 download retries so far; "
                         "3 pip warnings in the log")
    assert len(shown) <= 4
    kept = log.read_text()
    assert kept.count("WARNING: Retrying") == 12 and kept.count("WARNING: Location") == 3
    assert "Successfully installed" in kept


def test_a_failed_install_shows_the_log_tail_and_the_exit_status(tmp_path: Path) -> None:
    out = io.StringIO()
    log = tmp_path / "pip.log"
    assert run(log, 3, [sys.executable, "-c", SLOW_PIP, "1"], out) == 1
    text = out.getvalue()
    assert "FAILED installing dependencies" in text and f"pip failed (exit 1); its whole output: {log}" in text
    assert "Successfully installed" in text  # the log's last lines
