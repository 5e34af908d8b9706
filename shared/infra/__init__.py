"""Local infrastructure: the PostgreSQL and NATS a process talks to, from the environment or embedded."""
