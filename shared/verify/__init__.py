"""``league verify``: the whole log checked against itself, against JetStream's copy and against the notary's
signed checkpoints; each finding names its event."""
