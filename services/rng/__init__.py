"""Dice/RNG-audit service: owns the seeds, answers draws from memory, reveals each seed when its game ends."""
