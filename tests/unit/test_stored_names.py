"""Stored names are a contract: every registered message name, with its schema version, as the log holds them."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import shared.messages
from shared.messages import registry

SNAPSHOT = Path(__file__).parent / "snapshots" / "stored_names.txt"


def registered() -> list[str]:
    for module in pkgutil.iter_modules(shared.messages.__path__):
        importlib.import_module(f"shared.messages.{module.name}")
    importlib.import_module("shared.notary.checkpoint")  # the notary's one event, registered beside its signing
    return [f"{name} v{registry.entry(name).version}" for name in registry.names()]


def test_no_stored_name_or_version_changes_and_none_is_dropped() -> None:
    """A rename or a dropped type leaves events in the log that no code reads; a new type or a version bump (with
    its upcaster) is added to the snapshot by hand."""
    assert registered() == SNAPSHOT.read_text().splitlines()
