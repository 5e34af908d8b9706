"""Scenarios: a position written in a game's own terms, commands played from it through the public rules, and what
should come out (``docs/scenarios.md``). ``league scenario run FILE`` runs one; the rules' tests run many."""
