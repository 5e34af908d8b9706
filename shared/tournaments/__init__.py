"""Tournaments as pure rules: the aggregate (decide/evolve), Swiss pairing, elimination brackets, standings and the
quick-play queue. Standard library, msgspec and ``shared.ratings`` only: no I/O, no clock, no randomness."""
