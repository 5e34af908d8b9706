"""Game-engine service: handles league.engine.command (filled in by the play-for-real issue)."""
