"""The ``league`` command line."""
