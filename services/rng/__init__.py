"""Dice/RNG-audit service: owns the seeds, records every draw (filled in by the RNG-audit issue)."""
