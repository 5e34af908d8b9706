"""Phantoms of the Ice and Power Play: one season as one aggregate, pure rules (see RULES.md)."""

from __future__ import annotations

from shared.games.phantoms.rules import PhantomsRules, rules

__all__ = ["PhantomsRules", "rules"]
