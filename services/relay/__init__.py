"""PostgreSQL -> JetStream: every stored event, in read order, from a stored checkpoint."""
