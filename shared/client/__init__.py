"""A client of the gateway's HTTP API, and bots that play through it as a person would."""
