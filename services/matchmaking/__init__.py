"""Matchmaking service: tournaments (stream ``tournament-<id>``, rules in ``shared.tournaments``) created, joined and
started over ``league.matchmaking.*``; their games opened through the engine; results and ratings followed from the
global log; a quick-play queue that forms tables by rating band."""
