"""The base every ``python -m services.<name>`` builds on."""
