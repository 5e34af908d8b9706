"""Both compose files against the Compose Specification's JSON schema as check-jsonschema ships it (vendored in the
wheel: no network, no Docker): what `docker compose config` would refuse as malformed, these refuse too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.unit.deployed import ROOT

COMPOSE_FILES = ("docker-compose.yml", "deploy/compose/cluster.yml")


def check(path: Path) -> subprocess.CompletedProcess[str]:
    checker = Path(sys.executable).parent / "check-jsonschema"
    return subprocess.run([str(checker), "--builtin-schema", "vendor.compose-spec", str(path)], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_compose_file_follows_the_compose_specification(name: str) -> None:
    done = check(ROOT / name)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_refuses_a_misspelt_service_key(tmp_path: Path) -> None:
    spec = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    spec["services"]["engine"]["restarts"] = "always"
    broken = tmp_path / "compose.yml"
    broken.write_text(yaml.safe_dump(spec))
    done = check(broken)
    assert done.returncode != 0 and "restarts" in done.stdout + done.stderr
