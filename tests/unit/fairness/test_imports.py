from __future__ import annotations

import ast
import sys
from pathlib import Path

import shared.fairness

ALLOWED = {"msgspec", "shared.games.draws"}


def test_fairness_imports_only_the_standard_library_msgspec_and_draws() -> None:
    for path in Path(shared.fairness.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                ok = top in sys.stdlib_module_names or name in ALLOWED or name.startswith("shared.fairness")
                assert ok, f"{path.name} imports {name}"
