"""nats-py wrappers: connect, typed request/reply, the JetStream EVENTS stream."""
