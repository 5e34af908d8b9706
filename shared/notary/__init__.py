"""Signed checkpoints of the global log: a head hash per range of it, which a referee can keep."""
