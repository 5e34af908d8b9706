"""A game stream as the engine writes it: opening, accepted commands with their draws, the rules' events, the end."""
