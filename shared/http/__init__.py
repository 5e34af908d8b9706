"""HTTP conventions shared by the gateway and the standings service."""
