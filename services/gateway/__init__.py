"""HTTP gateway for players and dashboards (filled in by the play-for-real issue)."""
