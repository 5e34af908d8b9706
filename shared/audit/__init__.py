"""Audit of an ended game from its events alone: hash chains, the seed commitment, every draw, every move."""

from shared.audit.game import audit_game
from shared.audit.report import AuditReport, Discrepancy

__all__ = ["AuditReport", "Discrepancy", "audit_game"]
