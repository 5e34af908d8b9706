"""Pure rules: no I/O, no clock, no randomness of their own (only stdlib and msgspec are imported)."""
