"""What the services promise to consumers outside the league: the AsyncAPI document of the live feeds."""
