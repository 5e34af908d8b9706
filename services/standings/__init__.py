"""Standings service: projections and dashboard feeds (filled in by the standings issue)."""
