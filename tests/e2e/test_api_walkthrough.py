"""docs/api.md is what its generator writes from the gateway's types, every example command decodes as the
gateway decodes it, and every ``sh`` block of the page, run in order with bash against a running league, plays a
whole game of each kind to a verified audit."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import msgspec

from services.contract.api_walkthrough import GAMES, page
from shared.infra.processes import ServiceProcess
from shared.messages.games import command_decoder

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_page_is_what_the_generator_writes_and_its_examples_decode() -> None:
    text = page()
    assert PAGE.read_text() == text, "docs/api.md is stale: python -m services.contract.api_walkthrough > docs/api.md"
    for game, *_ in GAMES:
        section = text.split(f"`{game}.", 1)[1].split("## ", 1)[0]
        for example in re.findall(r"\| `(\{\"type\":\"" + game + r"\.[^`]*\})`", section):
            command = command_decoder(game).decode(example)
            assert msgspec.json.decode(example)["type"] == type(command).__struct_config__.tag


async def test_every_block_of_the_page_runs_against_a_running_league(league: dict[str, ServiceProcess]) -> None:
    assert shutil.which("jq") and shutil.which("curl"), "the walkthrough needs curl and jq (make test installs jq)"
    script = "set -euo pipefail\n" + "\n".join(BLOCK.findall(PAGE.read_text()))
    done = await asyncio.to_thread(subprocess.run, ["bash", "-c", script], capture_output=True, text=True,
                                   timeout=900, env={"PATH": "/usr/bin:/bin:/usr/local/bin",
                                                     "GATEWAY": league["gateway"].url})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == "", done.stderr
    verified = [line for line in done.stdout.splitlines() if ": verified" in line]
    assert [line.split(":", 1)[0].split("-", 1)[0] for line in verified] == [game for game, *_ in GAMES], done.stdout
    assert done.stdout.count('"ended":true') == len(GAMES), done.stdout
