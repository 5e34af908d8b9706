from __future__ import annotations

import ast
import sys
from pathlib import Path

import shared.tournaments

ALLOWED = {"msgspec", "shared.tournaments", "shared.ratings"}


def test_tournament_rules_import_only_the_standard_library_msgspec_and_ratings() -> None:
    for path in Path(shared.tournaments.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__" or any(
                    name == allowed or name.startswith(f"{allowed}.") for allowed in ALLOWED), f"{path.name}: {name}"
